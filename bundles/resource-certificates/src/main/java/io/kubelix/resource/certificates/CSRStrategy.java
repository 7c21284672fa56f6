package io.kubelix.resource.certificates;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.request.UserInfo;

import java.util.List;
import java.util.Map;

/**
 * The CertificateSigningRequest strategy (pkg/registry/certificates/certificates): on create the
 * spec's {@code username}, {@code uid}, {@code groups} and {@code extra} are those of the requesting
 * user, whatever the client sent, and the status starts empty, so no request is created approved;
 * an update of the resource itself changes its metadata only, as spec and status keep their stored
 * values ({@code status} and {@code approval} are the subresources that change the status).
 */
final class CSRStrategy implements RESTCreateStrategy, RESTUpdateStrategy {

    @Override
    public void prepareForCreate(RequestContext ctx, ObjectNode obj) {
        ObjectNode spec = obj.withObjectProperty("spec");
        spec.remove(List.of("username", "uid", "groups", "extra"));
        UserInfo user = ctx.user();
        if (user != null) {
            spec.put("username", user.name());
            if (!user.uid().isEmpty()) {
                spec.put("uid", user.uid());
            }
            if (!user.groups().isEmpty()) {
                ArrayNode groups = spec.putArray("groups");
                user.groups().forEach(groups::add);
            }
            if (!user.extra().isEmpty()) {
                ObjectNode extra = spec.putObject("extra");
                for (Map.Entry<String, List<String>> e : user.extra().entrySet()) {
                    ArrayNode values = extra.putArray(e.getKey());
                    e.getValue().forEach(values::add);
                }
            }
        }
        obj.putObject("status");
    }

    @Override
    public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
        return CSRValidation.validate(obj, CSRValidation.Options.CREATE);
    }

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        keep(obj, old, "spec");
        keep(obj, old, "status");
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        return CSRValidation.validateUpdate(obj, old, CSRValidation.Update.MAIN);
    }

    /** {@code obj}'s {@code field} becomes that of {@code old} (absent when {@code old} has none). */
    static void keep(ObjectNode obj, ObjectNode old, String field) {
        if (old.has(field)) {
            obj.set(field, old.get(field).deepCopy());
        } else {
            obj.remove(field);
        }
    }
}
