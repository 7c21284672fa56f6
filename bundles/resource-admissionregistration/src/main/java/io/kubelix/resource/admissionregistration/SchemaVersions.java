package io.kubelix.resource.admissionregistration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.kubelix.api.schema.ResourceSchema;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A kind's schema under another version's definition names. The Kubernetes Java client the schemas
 * are generated from has MutatingAdmissionPolicy only as {@code v1alpha1}; kube 1.34's
 * {@code v1beta1} has the same fields, so its schema is the alpha one with its definitions and
 * references renamed.
 */
final class SchemaVersions {

    private SchemaVersions() {
    }

    static ResourceSchema renamed(ResourceSchema schema, String from, String to) {
        Map<String, ObjectNode> definitions = new LinkedHashMap<>();
        schema.definitions().forEach((name, def) -> definitions.put(name.replace(from, to),
                (ObjectNode) renameRefs(def.deepCopy(), from, to)));
        return new ResourceSchema(schema.name().replace(from, to), definitions);
    }

    private static JsonNode renameRefs(JsonNode node, String from, String to) {
        if (node instanceof ObjectNode o) {
            for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if ("$ref".equals(e.getKey()) && e.getValue().isTextual()) {
                    e.setValue(TextNode.valueOf(e.getValue().asText().replace(from, to)));
                } else {
                    renameRefs(e.getValue(), from, to);
                }
            }
        } else if (node instanceof ArrayNode a) {
            a.forEach(n -> renameRefs(n, from, to));
        }
        return node;
    }
}
