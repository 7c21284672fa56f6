package io.kubelix.resource.core.serviceaccount;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.request.RequestContext;
import io.kubelix.resource.core.common.Nodes;

import java.util.ArrayList;
import java.util.List;

/**
 * kube's serviceaccount strategy: references to secrets keep only the name (cleanSecretReferences),
 * and the names referred to by {@code secrets} and {@code imagePullSecrets} must be set.
 */
final class ServiceAccountStrategy implements RESTCreateStrategy, RESTUpdateStrategy {

    @Override
    public void prepareForCreate(RequestContext ctx, ObjectNode obj) {
        cleanSecretReferences(obj);
    }

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        cleanSecretReferences(obj);
    }

    @Override
    public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
        List<FieldError> errs = new ArrayList<>();
        for (String field : new String[] {"secrets", "imagePullSecrets"}) {
            JsonNode refs = obj.path(field);
            for (int i = 0; i < refs.size(); i++) {
                if (Nodes.text(refs.get(i), "name").isEmpty()) {
                    errs.add(FieldError.required(field + "[" + i + "].name", ""));
                }
            }
        }
        return errs;
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        return validate(ctx, obj);
    }

    private static void cleanSecretReferences(ObjectNode obj) {
        if (obj.get("secrets") instanceof ArrayNode secrets) {
            for (int i = 0; i < secrets.size(); i++) {
                if (secrets.get(i) instanceof ObjectNode ref && ref.has("name")) {
                    ObjectNode clean = secrets.objectNode();
                    clean.set("name", ref.get("name"));
                    secrets.set(i, clean);
                }
            }
        }
    }
}
