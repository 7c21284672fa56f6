package io.kubelix.runtime.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.flipkart.zjsonpatch.CompatibilityFlags;
import com.flipkart.zjsonpatch.JsonPatch;
import com.flipkart.zjsonpatch.JsonPatchApplicationException;
import com.flipkart.zjsonpatch.InvalidJsonPatchException;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;

import java.util.EnumSet;
import java.util.Iterator;
import java.util.Map;

/**
 * The patch types of a PATCH request, by Content-Type:
 * <ul>
 *   <li>{@code application/json-patch+json}: RFC 6902, applied by zjsonpatch;</li>
 *   <li>{@code application/merge-patch+json}: RFC 7386;</li>
 *   <li>{@code application/strategic-merge-patch+json}: {@link StrategicMergePatch}, with the
 *       patch strategies and merge keys of the resource's OpenAPI schema.</li>
 * </ul>
 */
public final class Patches {
    public static final String JSON_PATCH = "application/json-patch+json";
    public static final String MERGE_PATCH = "application/merge-patch+json";
    public static final String STRATEGIC_MERGE_PATCH = "application/strategic-merge-patch+json";
    public static final String APPLY_PATCH = "application/apply-patch+yaml";

    private Patches() {
    }

    /** Applies {@code patch} of {@code patchType} to a copy of {@code original}, of a resource without a schema. */
    static ObjectNode apply(String patchType, JsonNode patch, ObjectNode original) {
        return apply(patchType, patch, original, null, null);
    }

    /**
     * Applies {@code patch} of {@code patchType} to a copy of {@code original}; a strategic merge
     * patch follows {@code schema} (the definition of the object's kind, null when there is none),
     * whose references {@code resolve} turns into definitions.
     */
    public static ObjectNode apply(String patchType, JsonNode patch, ObjectNode original, ObjectNode schema,
                                   java.util.function.Function<JsonNode, ObjectNode> resolve) {
        JsonNode result = switch (patchType) {
            case JSON_PATCH -> jsonPatch(patch, original);
            case MERGE_PATCH -> {
                requireObject(patch);
                yield mergePatch(original.deepCopy(), patch);
            }
            case STRATEGIC_MERGE_PATCH -> {
                requireObject(patch);
                yield StrategicMergePatch.apply(original.deepCopy(), (ObjectNode) patch, schema, resolve);
            }
            default -> throw unsupported(patchType);
        };
        if (!(result instanceof ObjectNode o)) {
            throw StatusException.badRequest("the patch turned the object into a non-object");
        }
        return o;
    }

    public static StatusException unsupported(String patchType) {
        return new StatusException(StatusReason.UNSUPPORTED_MEDIA_TYPE, 415,
                "the server does not support the patch type \"" + patchType + "\"; supported patch types: "
                        + JSON_PATCH + ", " + MERGE_PATCH + ", " + STRATEGIC_MERGE_PATCH, null, null);
    }

    private static JsonNode jsonPatch(JsonNode patch, ObjectNode original) {
        if (!patch.isArray()) {
            throw StatusException.badRequest("json patch must be a list of operations");
        }
        try {
            // RFC 6902 4.2: removing a member that does not exist is an error (zjsonpatch ignores it by default).
            return JsonPatch.apply(patch, original, EnumSet.of(CompatibilityFlags.FORBID_REMOVE_MISSING_OBJECT));
        } catch (InvalidJsonPatchException e) {
            throw StatusException.badRequest("invalid json patch: " + e.getMessage());
        } catch (JsonPatchApplicationException e) {
            throw new StatusException(StatusReason.INVALID, 422, "the server rejected our request due to an error "
                    + "in our request: " + e.getMessage(), null, null);
        }
    }

    private static void requireObject(JsonNode patch) {
        if (!patch.isObject()) {
            throw StatusException.badRequest("the patch must be a JSON object");
        }
    }

    /** RFC 7386. */
    private static JsonNode mergePatch(JsonNode target, JsonNode patch) {
        if (!patch.isObject()) {
            return patch;
        }
        ObjectNode result = target != null && target.isObject() ? (ObjectNode) target
                : com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it = patch.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getValue().isNull()) {
                result.remove(e.getKey());
            } else {
                result.set(e.getKey(), mergePatch(result.get(e.getKey()), e.getValue()));
            }
        }
        return result;
    }
}
