package io.kubelix.resource.batch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Reading a batch object's spec as the strategies default it: missing is Go's zero value. The
 * server's typed decoding has already refused a spec, or a field of it, of another JSON type.
 */
final class BatchSpecs {

    private BatchSpecs() {
    }

    /** The object's spec, created when missing. */
    static ObjectNode spec(ObjectNode obj) {
        return obj.get("spec") instanceof ObjectNode s ? s : obj.putObject("spec");
    }

    /** The object at {@code field}, created when missing or null; null when it is something else. */
    static ObjectNode object(ObjectNode parent, String field) {
        JsonNode v = parent.get(field);
        if (v == null || v.isNull()) {
            return parent.putObject(field);
        }
        return v instanceof ObjectNode o ? o : null;
    }
}
