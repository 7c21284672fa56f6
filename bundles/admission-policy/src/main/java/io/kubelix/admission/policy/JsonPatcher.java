package io.kubelix.admission.policy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.flipkart.zjsonpatch.CompatibilityFlags;
import com.flipkart.zjsonpatch.JsonPatch;
import com.flipkart.zjsonpatch.JsonPatchApplicationException;
import com.flipkart.zjsonpatch.Operation;
import io.kubelix.support.cel.CelValues;

import java.util.EnumSet;
import java.util.List;
import java.util.Map;

/**
 * kube's JSONPatch mutation ({@code patch.jsonPatcher}): the expression's list of
 * {@code JSONPatch{op, path, from, value}} (maps of their fields, see support-cel's object literals)
 * is an RFC 6902 patch applied to the object. A failed {@code test} operation leaves the object as it
 * was, without an error, as kube's; any other failure is an error worded {@code JSONPath: ...} as kube
 * words it.
 */
final class JsonPatcher {

    private JsonPatcher() {
    }

    /**
     * The object patched; {@code object} is not changed.
     *
     * @throws CompiledPolicy.PolicyException when the patch cannot be applied
     */
    static ObjectNode patch(ObjectNode object, Object result) throws CompiledPolicy.PolicyException {
        ArrayNode patch = operations(result);
        try {
            // kube's json-patch refuses to remove what is not there, as core-runtime's JSON patches do
            JsonNode patched = JsonPatch.apply(patch, object, EnumSet.of(CompatibilityFlags.FORBID_REMOVE_MISSING_OBJECT));
            if (!(patched instanceof ObjectNode o)) {
                throw new CompiledPolicy.PolicyException("JSONPath: the patch does not leave an object");
            }
            return o;
        } catch (JsonPatchApplicationException e) {
            if (e.getOperation() == Operation.TEST) {
                return object;
            }
            throw new CompiledPolicy.PolicyException("JSONPath: " + e.getMessage());
        } catch (RuntimeException e) {
            throw new CompiledPolicy.PolicyException("JSONPath: " + e.getMessage());
        }
    }

    /** The RFC 6902 operations of the expression's result. */
    static ArrayNode operations(Object result) throws CompiledPolicy.PolicyException {
        if (!(result instanceof List<?> list)) {
            throw new CompiledPolicy.PolicyException("type mismatch: JSONPatchType.expression should evaluate to array");
        }
        ArrayNode patch = JsonNodeFactory.instance.arrayNode();
        for (Object item : list) {
            if (!(item instanceof Map<?, ?> op)) {
                throw new CompiledPolicy.PolicyException(
                        "type mismatch: JSONPatchType.expression should evaluate to array of JSONPatch");
            }
            ObjectNode o = patch.addObject();
            o.put("op", op.get("op") == null ? "" : String.valueOf(op.get("op")));
            o.put("path", op.get("path") == null ? "" : String.valueOf(op.get("path")));
            if (op.get("from") instanceof String from && !from.isEmpty()) {
                o.put("from", from);
            }
            if (op.containsKey("value")) {
                o.set("value", CelValues.toJson(op.get("value")));
            }
        }
        return patch;
    }
}
