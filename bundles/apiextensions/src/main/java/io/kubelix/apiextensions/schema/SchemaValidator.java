package io.kubelix.apiextensions.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Validates a custom object against its CRD version's structural schema, as kube's
 * apiserver/validation does through kube-openapi's validator, with the field paths and messages
 * kube's kubeOpenAPIResultToFieldErrors makes of its errors: types (with {@code nullable} and
 * {@code x-kubernetes-int-or-string}), formats, {@code enum}, minimum and maximum (exclusive too),
 * {@code multipleOf}, string lengths, {@code pattern}, item and property counts, {@code required},
 * the keys of {@code x-kubernetes-list-type: map} lists and the values of {@code set} lists, and
 * {@code allOf}, {@code anyOf}, {@code oneOf} and {@code not}. {@code metadata} is the server's to
 * check, at the root and in embedded resources.
 */
public final class SchemaValidator {
    private final ObjectNode schema;
    private final Map<String, Pattern> patterns = new ConcurrentHashMap<>();

    public SchemaValidator(ObjectNode schema) {
        this.schema = schema;
    }

    /** The errors of {@code obj}, the whole object; paths are relative to it ({@code spec.replicas}). */
    public List<FieldError> validate(JsonNode obj) {
        List<FieldError> errs = new ArrayList<>();
        validate(obj, schema, "", true, errs);
        return errs;
    }

    /**
     * The errors of an update, ratcheted as kube 1.33 does (CRDValidationRatcheting): an error about
     * a value the update leaves as it was (the same at the same path in {@code old}, or missing in
     * both) is not one, so objects stored before a schema was tightened can still be updated.
     */
    public List<FieldError> validateUpdate(JsonNode obj, JsonNode old) {
        List<FieldError> errs = new ArrayList<>();
        for (FieldError e : validate(obj)) {
            List<Object> steps = steps(e.field());
            if (steps == null || !at(obj, steps).equals(at(old, steps))) {
                errs.add(e);
            }
        }
        return errs;
    }

    /** The steps of a field path ({@code spec.ports[0].name}); null when it is ambiguous. */
    private static List<Object> steps(String path) {
        List<Object> steps = new ArrayList<>();
        for (String part : path.split("\\.", -1)) {
            int bracket = part.indexOf('[');
            String name = bracket < 0 ? part : part.substring(0, bracket);
            if (name.isEmpty() && bracket != 0) {
                return null;
            }
            if (!name.isEmpty()) {
                steps.add(name);
            }
            while (bracket >= 0) {
                int close = part.indexOf(']', bracket);
                if (close < 0) {
                    return null;
                }
                try {
                    steps.add(Integer.parseInt(part.substring(bracket + 1, close)));
                } catch (NumberFormatException e) {
                    return null;
                }
                bracket = part.indexOf('[', close);
            }
        }
        return steps;
    }

    private static JsonNode at(JsonNode node, List<Object> steps) {
        JsonNode n = node;
        for (Object step : steps) {
            n = step instanceof Integer i ? n.path(i) : n.path((String) step);
        }
        return n;
    }

    private void validate(JsonNode value, JsonNode s, String path, boolean resourceRoot, List<FieldError> errs) {
        if (s == null || !s.isObject()) {
            return;
        }
        if (value.isNull()) {
            if (!s.path("nullable").asBoolean(false) && s.has("type")) {
                errs.add(typeError(path, s.path("type").asText(), "null"));
            }
            return;
        }
        String type = s.path("type").asText("");
        if (s.path("x-kubernetes-int-or-string").asBoolean(false)) {
            if (!value.isIntegralNumber() && !value.isTextual()) {
                errs.add(typeError(path, "integer,string", jsonType(value)));
                return;
            }
        } else if (!type.isEmpty() && !typeMatches(type, value)) {
            errs.add(typeError(path, type, jsonType(value)));
            return;
        }
        String name = name(path);
        if (value.isTextual()) {
            strings(value.asText(), s, path, name, errs);
        }
        if (value.isNumber()) {
            numbers(value, s, path, name, errs);
        }
        JsonNode enumValues = s.get("enum");
        if (enumValues != null && enumValues.isArray() && !contains(enumValues, value)) {
            List<String> supported = new ArrayList<>();
            enumValues.forEach(e -> supported.add(e.isTextual() ? e.asText() : e.toString()));
            errs.add(new FieldError(FieldError.Type.NOT_SUPPORTED, path, value.isTextual() ? value.asText() : value,
                    "supported values: " + String.join(", ", supported.stream().map(v -> "\"" + v + "\"").toList())));
        }
        if (value instanceof ArrayNode a) {
            arrays(a, s, path, name, errs);
        }
        if (value instanceof ObjectNode o) {
            boolean embedded = !resourceRoot && s.path("x-kubernetes-embedded-resource").asBoolean(false);
            if (embedded) {
                embeddedResource(o, path, errs);
            }
            objects(o, s, path, name, resourceRoot || embedded, errs);
        }
        composites(value, s, path, resourceRoot, errs);
    }

    private void strings(String v, JsonNode s, String path, String name, List<FieldError> errs) {
        int length = v.codePointCount(0, v.length());
        if (s.has("maxLength") && length > s.get("maxLength").asLong()) {
            errs.add(FieldError.tooLong(path, v, s.get("maxLength").asInt()));
        }
        if (s.has("minLength") && length < s.get("minLength").asLong()) {
            errs.add(FieldError.invalid(path, v, name + " in body should be at least " + s.get("minLength").asLong()
                    + " chars long"));
        }
        if (s.has("pattern")) {
            String p = s.get("pattern").asText();
            Pattern compiled = patterns.computeIfAbsent(p, Pattern::compile);
            if (!compiled.matcher(v).find()) {
                errs.add(FieldError.invalid(path, v, name + " in body should match '" + p + "'"));
            }
        }
        String format = s.path("format").asText("");
        if (!format.isEmpty() && !Formats.valid(format, v)) {
            errs.add(FieldError.invalid(path, v, name + " in body must be of type " + format + ": \"" + v + "\""));
        }
    }

    private static void numbers(JsonNode v, JsonNode s, String path, String name, List<FieldError> errs) {
        BigDecimal n = v.decimalValue();
        Object shown = v.isIntegralNumber() ? (Object) v.bigIntegerValue() : v.doubleValue();
        if (s.has("maximum")) {
            BigDecimal max = s.get("maximum").decimalValue();
            boolean exclusive = s.path("exclusiveMaximum").asBoolean(false);
            if (exclusive ? n.compareTo(max) >= 0 : n.compareTo(max) > 0) {
                errs.add(FieldError.invalid(path, shown, name + " in body should be less than "
                        + (exclusive ? "" : "or equal to ") + number(s.get("maximum"))));
            }
        }
        if (s.has("minimum")) {
            BigDecimal min = s.get("minimum").decimalValue();
            boolean exclusive = s.path("exclusiveMinimum").asBoolean(false);
            if (exclusive ? n.compareTo(min) <= 0 : n.compareTo(min) < 0) {
                errs.add(FieldError.invalid(path, shown, name + " in body should be greater than "
                        + (exclusive ? "" : "or equal to ") + number(s.get("minimum"))));
            }
        }
        if (s.has("multipleOf")) {
            BigDecimal factor = s.get("multipleOf").decimalValue();
            if (factor.signum() != 0 && n.remainder(factor).signum() != 0) {
                errs.add(FieldError.invalid(path, shown, name + " in body should be a multiple of " + number(s.get("multipleOf"))));
            }
        }
    }

    private void arrays(ArrayNode a, JsonNode s, String path, String name, List<FieldError> errs) {
        if (s.has("maxItems") && a.size() > s.get("maxItems").asLong()) {
            errs.add(new FieldError(FieldError.Type.TOO_MANY, path, a.size(), "must have at most "
                    + s.get("maxItems").asLong() + " items"));
        }
        if (s.has("minItems") && a.size() < s.get("minItems").asLong()) {
            errs.add(FieldError.invalid(path, "", name + " in body should have at least " + s.get("minItems").asLong() + " items"));
        }
        JsonNode items = s.get("items");
        for (int i = 0; i < a.size(); i++) {
            validate(a.get(i), items, path + "[" + i + "]", false, errs);
        }
        String listType = s.path("x-kubernetes-list-type").asText("");
        if (listType.equals("map")) {
            List<String> keys = new ArrayList<>();
            s.path("x-kubernetes-list-map-keys").forEach(k -> keys.add(k.asText()));
            Set<List<JsonNode>> seen = new HashSet<>();
            for (int i = 0; i < a.size(); i++) {
                List<JsonNode> key = new ArrayList<>();
                for (String k : keys) {
                    key.add(a.get(i).path(k));
                }
                if (!seen.add(key)) {
                    errs.add(FieldError.duplicate(path + "[" + i + "]", keyString(keys, key)));
                }
            }
        } else if (listType.equals("set")) {
            Set<JsonNode> seen = new HashSet<>();
            for (int i = 0; i < a.size(); i++) {
                if (!seen.add(a.get(i))) {
                    errs.add(FieldError.duplicate(path + "[" + i + "]", a.get(i).isTextual() ? a.get(i).asText() : a.get(i)));
                }
            }
        }
    }

    private void objects(ObjectNode o, JsonNode s, String path, String name, boolean resource, List<FieldError> errs) {
        if (s.has("maxProperties") && o.size() > s.get("maxProperties").asLong()) {
            errs.add(new FieldError(FieldError.Type.TOO_MANY, path, o.size(), "must have at most "
                    + s.get("maxProperties").asLong() + " items"));
        }
        if (s.has("minProperties") && o.size() < s.get("minProperties").asLong()) {
            errs.add(FieldError.invalid(path, "", name + " in body should have at least " + s.get("minProperties").asLong()
                    + " properties"));
        }
        for (JsonNode r : s.path("required")) {
            if (!o.has(r.asText())) {
                errs.add(FieldError.required(child(path, r.asText()), ""));
            }
        }
        JsonNode props = s.path("properties");
        JsonNode additional = s.get("additionalProperties");
        for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            if (resource && f.getKey().equals("metadata")) {
                continue;
            }
            JsonNode ps = props.get(f.getKey());
            if (ps == null && additional != null && additional.isObject()) {
                ps = additional;
            }
            if (ps != null) {
                validate(f.getValue(), ps, child(path, f.getKey()), false, errs);
            }
        }
    }

    /** kube's validateEmbeddedResource: an embedded object names its apiVersion and kind. */
    private static void embeddedResource(ObjectNode o, String path, List<FieldError> errs) {
        for (String field : new String[] {"apiVersion", "kind"}) {
            JsonNode v = o.get(field);
            String p = child(path, field);
            if (v == null) {
                errs.add(FieldError.required(p, "must not be empty"));
            } else if (!v.isTextual()) {
                errs.add(FieldError.invalid(p, v.toString(), "must be a string"));
            } else if (v.asText().isEmpty()) {
                errs.add(FieldError.invalid(p, "", "must not be empty"));
            } else if (field.equals("apiVersion") && v.asText().split("/", -1).length > 2) {
                errs.add(FieldError.invalid(p, v.asText(), "unexpected GroupVersion string: " + v.asText()));
            }
        }
    }

    private void composites(JsonNode value, JsonNode s, String path, boolean resourceRoot, List<FieldError> errs) {
        for (JsonNode sub : s.path("allOf")) {
            validate(value, merged(s, sub), path, resourceRoot, errs);
        }
        JsonNode anyOf = s.path("anyOf");
        if (anyOf.size() > 0 && !s.path("x-kubernetes-int-or-string").asBoolean(false)) {
            boolean any = false;
            for (JsonNode sub : anyOf) {
                List<FieldError> e = new ArrayList<>();
                validate(value, merged(s, sub), path, resourceRoot, e);
                any |= e.isEmpty();
            }
            if (!any) {
                errs.add(FieldError.invalid(path, "", name(path) + " in body must validate at least one schema (anyOf)"));
            }
        }
        JsonNode oneOf = s.path("oneOf");
        if (oneOf.size() > 0) {
            int valid = 0;
            for (JsonNode sub : oneOf) {
                List<FieldError> e = new ArrayList<>();
                validate(value, merged(s, sub), path, resourceRoot, e);
                valid += e.isEmpty() ? 1 : 0;
            }
            if (valid != 1) {
                errs.add(FieldError.invalid(path, "", name(path) + " in body must validate one and only one schema (oneOf)"));
            }
        }
        JsonNode not = s.get("not");
        if (not != null && not.isObject()) {
            List<FieldError> e = new ArrayList<>();
            validate(value, merged(s, not), path, resourceRoot, e);
            if (e.isEmpty()) {
                errs.add(FieldError.invalid(path, "", name(path) + " in body must not validate the schema (not)"));
            }
        }
    }

    /** A value validation inside allOf/anyOf/oneOf/not applies with the type of the schema holding it. */
    private static JsonNode merged(JsonNode outer, JsonNode inner) {
        if (!inner.isObject() || inner.has("type") || !outer.has("type")) {
            return inner;
        }
        ObjectNode copy = ((ObjectNode) inner).deepCopy();
        copy.set("type", outer.get("type"));
        return copy;
    }

    private static FieldError typeError(String path, String type, String actual) {
        return FieldError.invalid(path, actual, name(path) + " in body must be of type " + type + ": \"" + actual + "\"");
    }

    static boolean typeMatches(String type, JsonNode v) {
        return switch (type) {
            case "object" -> v.isObject();
            case "array" -> v.isArray();
            case "string" -> v.isTextual();
            case "boolean" -> v.isBoolean();
            case "integer" -> v.isIntegralNumber() || v.isNumber() && v.decimalValue().stripTrailingZeros().scale() <= 0;
            case "number" -> v.isNumber();
            default -> true;
        };
    }

    static String jsonType(JsonNode v) {
        if (v.isObject()) {
            return "object";
        }
        if (v.isArray()) {
            return "array";
        }
        if (v.isTextual()) {
            return "string";
        }
        if (v.isBoolean()) {
            return "boolean";
        }
        if (v.isIntegralNumber()) {
            return "integer";
        }
        if (v.isNumber()) {
            return "number";
        }
        return "null";
    }

    private static String number(JsonNode n) {
        return n.isIntegralNumber() ? n.asText() : new BigDecimal(n.asText()).stripTrailingZeros().toPlainString();
    }

    /** What kube-openapi names a field in its messages: the path, or {@code body} for the object itself. */
    private static String name(String path) {
        return path.isEmpty() ? "body" : path;
    }

    private static String child(String path, String field) {
        return path.isEmpty() ? field : path + "." + field;
    }

    private static boolean contains(JsonNode values, JsonNode v) {
        for (JsonNode e : values) {
            if (e.equals(v) || e.isNumber() && v.isNumber() && e.decimalValue().compareTo(v.decimalValue()) == 0) {
                return true;
            }
        }
        return false;
    }

    private static String keyString(List<String> keys, List<JsonNode> values) {
        StringBuilder b = new StringBuilder("map[");
        for (int i = 0; i < keys.size(); i++) {
            if (i > 0) {
                b.append(' ');
            }
            JsonNode v = values.get(i);
            b.append(keys.get(i)).append(':').append(v.isTextual() ? v.asText() : v.toString());
        }
        return b.append(']').toString();
    }
}
