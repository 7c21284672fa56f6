package io.kubelix.resource.core.pod;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.request.RequestContext;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The update strategy of {@code pods/resize} (kube 1.33's podResizeStrategy): of the pod sent, only
 * its containers' and init containers' {@code resources} and {@code resizePolicy} are taken, matched
 * by name onto the stored pod, whose every other field stays; validation is kube's ValidatePodResize
 * ({@link PodResizeValidation}).
 */
final class PodResizeStrategy implements RESTUpdateStrategy {

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        ObjectNode pod = old.deepCopy();
        ObjectNode meta = pod.with("metadata");
        for (String field : new String[] {"name", "namespace", "resourceVersion", "uid"}) {
            JsonNode v = obj.path("metadata").get(field);
            if (v == null) {
                meta.remove(field);
            } else {
                meta.set(field, v);
            }
        }
        // Defaulted as kube decodes the request: requests come from limits where unset.
        ObjectNode sent = obj.path("spec") instanceof ObjectNode s ? s.deepCopy() : obj.objectNode();
        PodDefaults.setPodSpecDefaults(sent);
        for (String list : new String[] {"containers", "initContainers"}) {
            if (pod.path("spec").get(list) instanceof ArrayNode stored) {
                takeResources(stored, sent.path(list));
            }
        }
        obj.removeAll();
        obj.setAll(pod);
    }

    /** kube's dropNonResizeUpdates for one list: each sent container's resources onto the stored one of its name. */
    private static void takeResources(ArrayNode stored, JsonNode sent) {
        Map<String, ObjectNode> byName = new HashMap<>();
        stored.forEach(c -> {
            if (c instanceof ObjectNode o) {
                byName.put(o.path("name").asText(), o);
            }
        });
        for (JsonNode c : sent) {
            ObjectNode target = byName.get(c.path("name").asText());
            if (target == null) {
                continue;
            }
            for (String field : new String[] {"resources", "resizePolicy"}) {
                if (c.hasNonNull(field)) {
                    target.set(field, c.get(field).deepCopy());
                } else {
                    target.remove(field);
                }
            }
        }
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        return PodResizeValidation.validateResize(obj, old);
    }
}
