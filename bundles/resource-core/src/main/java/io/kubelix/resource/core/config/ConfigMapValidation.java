package io.kubelix.resource.core.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.resource.core.common.Nodes;
import io.kubelix.resource.core.common.ValidationMessages;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * kube's ValidateConfigMap and ValidateConfigMapUpdate, with their field paths and messages.
 * Metadata is the Store's to validate.
 */
final class ConfigMapValidation {
    /** corev1.MaxSecretSize, which ConfigMaps share: 1 MiB over all values. */
    static final int MAX_SIZE = 1024 * 1024;

    private ConfigMapValidation() {
    }

    static List<FieldError> validate(ObjectNode cm) {
        List<FieldError> errs = new ArrayList<>();
        long totalSize = 0;
        DataMap.checkShape(cm, "data", errs);
        DataMap.checkShape(cm, "binaryData", errs);
        ObjectNode data = Nodes.object(cm, "data");
        ObjectNode binaryData = Nodes.object(cm, "binaryData");
        if (data != null) {
            for (Iterator<Map.Entry<String, JsonNode>> it = data.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                String key = e.getKey();
                String path = "data[" + key + "]";
                ConfigKey.validate(key).forEach(msg -> errs.add(FieldError.invalid(path, key, msg)));
                if (binaryData != null && binaryData.has(key)) {
                    errs.add(FieldError.invalid(path, key, "duplicate of key present in binaryData"));
                }
                if (e.getValue().isTextual()) {
                    totalSize += ValidationMessages.byteLength(e.getValue().asText());
                }
            }
        }
        if (binaryData != null) {
            for (Iterator<Map.Entry<String, JsonNode>> it = binaryData.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                String key = e.getKey();
                String path = "binaryData[" + key + "]";
                ConfigKey.validate(key).forEach(msg -> errs.add(FieldError.invalid(path, key, msg)));
                if (e.getValue().isTextual()) {
                    try {
                        totalSize += Base64Data.decode(e.getValue().asText()).length;
                    } catch (Base64Data.IllegalBase64Exception ex) {
                        errs.add(FieldError.invalid(path, null, ex.getMessage()));
                    }
                }
            }
        }
        if (totalSize > MAX_SIZE) {
            // Kube reports the size against the whole object: the empty field path.
            errs.add(new FieldError(FieldError.Type.TOO_LONG, "", null, "must have at most " + MAX_SIZE + " bytes"));
        }
        return errs;
    }

    static List<FieldError> validateUpdate(ObjectNode cm, ObjectNode old) {
        List<FieldError> errs = new ArrayList<>();
        if (Nodes.isTrue(old, "immutable")) {
            if (!Nodes.isTrue(cm, "immutable")) {
                errs.add(FieldError.forbidden("immutable", DataMap.IMMUTABLE_MESSAGE));
            }
            if (!DataMap.sameEntries(cm.get("data"), old.get("data"), false)) {
                errs.add(FieldError.forbidden("data", DataMap.IMMUTABLE_MESSAGE));
            }
            if (!DataMap.sameEntries(cm.get("binaryData"), old.get("binaryData"), true)) {
                errs.add(FieldError.forbidden("binaryData", DataMap.IMMUTABLE_MESSAGE));
            }
        }
        errs.addAll(validate(cm));
        return errs;
    }
}
