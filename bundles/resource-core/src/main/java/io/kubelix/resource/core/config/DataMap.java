package io.kubelix.resource.core.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.request.RequestContext;

import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The string-keyed maps of ConfigMaps and Secrets ({@code data}, {@code binaryData}): type checks,
 * the stored form, and the equality the {@code immutable} rule uses. A {@code map[string][]byte}
 * holds base64 text on the wire and is compared by its bytes, as kube compares decoded values.
 */
final class DataMap {
    static final String IMMUTABLE_MESSAGE = "field is immutable when `immutable` is set";

    private DataMap() {
    }

    /**
     * kube decodes a map of bytes ({@code []byte} values: a Secret's {@code data}, a ConfigMap's
     * {@code binaryData}) while decoding the body, so a create or PUT whose values are not base64 is
     * a 400 naming the decoder's error, before anything else; the object a patch produces goes on to
     * validation's 422 instead, as kube's does.
     */
    static void refuseUndecodable(RequestContext ctx, ObjectNode obj, String field, String kind) {
        if (ctx.requestInfo() == null || !Set.of("create", "update").contains(ctx.requestInfo().verb())) {
            return;
        }
        JsonNode map = obj.get(field);
        if (map == null || !map.isObject()) {
            return;
        }
        for (Iterator<JsonNode> it = map.elements(); it.hasNext(); ) {
            JsonNode v = it.next();
            if (v.isTextual()) {
                try {
                    Base64Data.decode(v.asText());
                } catch (Base64Data.IllegalBase64Exception e) {
                    throw StatusException.badRequest(kind + " in version \"v1\" cannot be handled as a " + kind + ": "
                            + e.getMessage());
                }
            }
        }
    }

    /**
     * Checks that {@code field} is absent, null or an object of string (or null) values. Kube
     * rejects other shapes while decoding; here they are reported as invalid fields.
     */
    static void checkShape(ObjectNode obj, String field, List<FieldError> errs) {
        JsonNode v = obj.get(field);
        if (v == null || v.isNull()) {
            return;
        }
        if (!v.isObject()) {
            errs.add(FieldError.invalid(field, null, "must be a map of string keys to string values"));
            return;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().isTextual() && !e.getValue().isNull()) {
                errs.add(FieldError.invalid(field + "[" + e.getKey() + "]", null, "must be a string"));
            }
        }
    }

    /**
     * Brings a map into its stored form, in place: null values become "", base64 values are
     * re-encoded canonically (when they decode), and an empty map is dropped as omitempty would.
     */
    static void canonicalize(ObjectNode obj, String field, boolean base64) {
        JsonNode v = obj.get(field);
        if (v == null) {
            return;
        }
        if (v.isNull() || v.isObject() && v.isEmpty()) {
            obj.remove(field);
            return;
        }
        if (!(v instanceof ObjectNode map)) {
            return;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = map.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode value = e.getValue();
            if (value.isNull()) {
                e.setValue(TextNode.valueOf(""));
            } else if (base64 && value.isTextual() && Base64Data.isValid(value.asText())) {
                e.setValue(TextNode.valueOf(Base64Data.encode(Base64Data.decode(value.asText()))));
            }
        }
    }

    /**
     * Whether two maps hold the same entries. Absent, null and empty are the same map; base64
     * values are compared by their bytes so a re-wrapped encoding is no change.
     */
    static boolean sameEntries(JsonNode a, JsonNode b, boolean base64) {
        ObjectNode x = a instanceof ObjectNode o ? o : null;
        ObjectNode y = b instanceof ObjectNode o ? o : null;
        int xs = x == null ? 0 : x.size();
        int ys = y == null ? 0 : y.size();
        if (xs != ys) {
            return false;
        }
        if (xs == 0) {
            return Objects.equals(shape(a), shape(b));
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = x.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode other = y.get(e.getKey());
            if (other == null || !Objects.equals(comparable(e.getValue(), base64), comparable(other, base64))) {
                return false;
            }
        }
        return true;
    }

    /** Non-map values (invalid anyway) compare by their JSON; absent, null and {} are one "empty". */
    private static JsonNode shape(JsonNode v) {
        return v == null || v.isNull() || v.isObject() ? null : v;
    }

    private static Object comparable(JsonNode v, boolean base64) {
        String s = v.isNull() ? "" : v.isTextual() ? v.asText() : v.toString();
        if (base64 && Base64Data.isValid(s)) {
            return Base64Data.encode(Base64Data.decode(s));
        }
        return s;
    }
}
