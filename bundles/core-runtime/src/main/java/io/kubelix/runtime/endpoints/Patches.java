package io.kubelix.runtime.endpoints;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.flipkart.zjsonpatch.CompatibilityFlags;
import com.flipkart.zjsonpatch.JsonPatch;
import com.flipkart.zjsonpatch.JsonPatchApplicationException;
import com.flipkart.zjsonpatch.InvalidJsonPatchException;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;

import java.util.EnumSet;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * The patch types of a PATCH request, by Content-Type:
 * <ul>
 *   <li>{@code application/json-patch+json}: RFC 6902, applied by zjsonpatch;</li>
 *   <li>{@code application/merge-patch+json}: RFC 7386;</li>
 *   <li>{@code application/strategic-merge-patch+json}: a merge patch whose maps honour the
 *       {@code $patch: replace|delete} and {@code $retainKeys} directives. Lists are replaced
 *       whole, which is strategic merge's behaviour for lists without a merge key; merge keys
 *       from resource schemas are not applied yet.</li>
 * </ul>
 */
final class Patches {
    static final String JSON_PATCH = "application/json-patch+json";
    static final String MERGE_PATCH = "application/merge-patch+json";
    static final String STRATEGIC_MERGE_PATCH = "application/strategic-merge-patch+json";
    static final String APPLY_PATCH = "application/apply-patch+yaml";

    private Patches() {
    }

    /** Applies {@code patch} of {@code patchType} to a copy of {@code original}. */
    static ObjectNode apply(String patchType, JsonNode patch, ObjectNode original) {
        JsonNode result = switch (patchType) {
            case JSON_PATCH -> jsonPatch(patch, original);
            case MERGE_PATCH -> {
                requireObject(patch);
                yield mergePatch(original.deepCopy(), patch, false);
            }
            case STRATEGIC_MERGE_PATCH -> {
                requireObject(patch);
                yield mergePatch(original.deepCopy(), patch, true);
            }
            default -> throw unsupported(patchType);
        };
        if (!(result instanceof ObjectNode o)) {
            throw StatusException.badRequest("the patch turned the object into a non-object");
        }
        return o;
    }

    static StatusException unsupported(String patchType) {
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

    /** RFC 7386, with the strategic-merge map directives when {@code strategic}. */
    private static JsonNode mergePatch(JsonNode target, JsonNode patch, boolean strategic) {
        if (!patch.isObject()) {
            return patch;
        }
        ObjectNode p = (ObjectNode) patch;
        ObjectNode result = target != null && target.isObject() ? (ObjectNode) target : com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        if (strategic) {
            String directive = p.path("$patch").asText("");
            switch (directive) {
                case "" -> { }
                case "replace" -> {
                    ObjectNode replaced = p.deepCopy();
                    replaced.remove("$patch");
                    return stripDirectives(replaced);
                }
                case "delete" -> {
                    return null;
                }
                case "merge" -> { }
                default -> throw StatusException.badRequest("unknown patch type: " + directive + " in map");
            }
            JsonNode retain = p.get("$retainKeys");
            if (retain != null) {
                if (!retain.isArray()) {
                    throw StatusException.badRequest("$retainKeys must be a list of strings");
                }
                Set<String> keep = new HashSet<>();
                retain.forEach(k -> keep.add(k.asText()));
                p.fields().forEachRemaining(e -> {
                    if (!e.getKey().startsWith("$") && !e.getValue().isNull() && !keep.contains(e.getKey())) {
                        throw StatusException.badRequest("invalid patch format of retainKeys: " + e.getKey()
                                + " is not in the list");
                    }
                });
                result.retain(keep.stream().filter(k -> result.has(k) || p.has(k)).toList());
            }
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = p.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String key = e.getKey();
            if (strategic && key.startsWith("$")) {
                continue;
            }
            JsonNode value = e.getValue();
            if (value.isNull()) {
                result.remove(key);
                continue;
            }
            JsonNode merged = mergePatch(result.get(key), value, strategic);
            if (merged == null) {
                result.remove(key);
            } else {
                result.set(key, merged);
            }
        }
        return result;
    }

    private static JsonNode stripDirectives(ObjectNode o) {
        o.remove("$retainKeys");
        o.fields().forEachRemaining(e -> {
            if (e.getValue() instanceof ObjectNode child) {
                child.remove("$patch");
                stripDirectives(child);
            }
        });
        return o;
    }
}
