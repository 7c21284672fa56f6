package io.kubelix.resource.core.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.request.RequestContext;
import io.kubelix.resource.core.common.Nodes;

import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The Secret strategy (pkg/registry/core/secret/strategy.go plus what kube's v1 conversion and
 * defaulting do on the way in): {@code stringData} is merged into {@code data} and never stored,
 * {@code type} defaults to Opaque, and the stored {@code data} is canonical base64.
 */
final class SecretStrategy implements RESTCreateStrategy, RESTUpdateStrategy {
    private final SecretValidation validation = new SecretValidation();

    @Override
    public void prepareForCreate(RequestContext ctx, ObjectNode obj) {
        DataMap.refuseUndecodable(ctx, obj, "data", "Secret");
        mergeStringData(obj);
        if (Nodes.text(obj, "type").isEmpty()) {
            obj.put("type", SecretValidation.TYPE_OPAQUE);
        }
    }

    /**
     * An update that leaves {@code type} out keeps the old one (kube's PrepareForUpdate), so a
     * replace of a TLS secret without its type is not refused as a type change.
     */
    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        DataMap.refuseUndecodable(ctx, obj, "data", "Secret");
        mergeStringData(obj);
        if (Nodes.text(obj, "type").isEmpty()) {
            String oldType = Nodes.text(old, "type");
            obj.put("type", oldType.isEmpty() ? SecretValidation.TYPE_OPAQUE : oldType);
        }
    }

    @Override
    public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
        return validation.validate(obj);
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        return validation.validateUpdate(obj, old);
    }

    @Override
    public void canonicalize(ObjectNode obj) {
        DataMap.canonicalize(obj, "data", true);
    }

    /**
     * stringData is a write-only convenience: each string value is base64-encoded into
     * {@code data}, overriding a key already there, and the field is dropped. Values that are not
     * strings stay behind for validation to report.
     */
    static void mergeStringData(ObjectNode obj) {
        JsonNode stringData = obj.get("stringData");
        if (stringData == null || stringData.isNull()) {
            obj.remove("stringData");
            return;
        }
        if (!(stringData instanceof ObjectNode entries)) {
            return;
        }
        JsonNode existing = obj.get("data");
        if (existing != null && !existing.isNull() && !existing.isObject()) {
            return;
        }
        ObjectNode data = existing instanceof ObjectNode o ? o : obj.putObject("data");
        for (Iterator<Map.Entry<String, JsonNode>> it = entries.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode v = e.getValue();
            if (v.isTextual() || v.isNull()) {
                String text = v.isNull() ? "" : v.asText();
                data.put(e.getKey(), Base64Data.encode(text.getBytes(StandardCharsets.UTF_8)));
                it.remove();
            }
        }
        if (entries.isEmpty()) {
            obj.remove("stringData");
        }
    }
}
