package io.kubelix.runtime.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.schema.ResourceSchema;
import io.kubelix.support.quantity.InvalidQuantityException;
import io.kubelix.support.quantity.Quantity;

import java.math.BigInteger;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Iterator;
import java.util.Map;

/**
 * What kube's typed decoding refuses, found by walking an object against its kind's OpenAPI
 * schema: a value of the wrong JSON type for its field (a string for an int32, an object for a
 * list), an integer out of its int32 or int64 range or with a fraction, a quantity, int-or-string
 * or date-time that does not parse. kube decodes every body into its Go type before anything else
 * runs, so such an object is a 400, worded as Go's decoder words it
 * ({@code Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal string into Go
 * struct field PodSpec.spec.priority of type int32}), and is never stored where it would break
 * every typed client's LIST and WATCH. Unknown fields are not its concern (see
 * {@link UnknownFields}), nor is null, which Go decodes as the zero value.
 */
final class TypedDecoding {
    private static final String REF_PREFIX = "#/components/schemas/";
    private static final String QUANTITY = "io.k8s.apimachinery.pkg.api.resource.Quantity";
    private static final String INT_OR_STRING = "io.k8s.apimachinery.pkg.util.intstr.IntOrString";
    private static final BigInteger INT32_MIN = BigInteger.valueOf(Integer.MIN_VALUE);
    private static final BigInteger INT32_MAX = BigInteger.valueOf(Integer.MAX_VALUE);
    private static final BigInteger INT64_MIN = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger INT64_MAX = BigInteger.valueOf(Long.MAX_VALUE);

    private final ResourceSchema schema;
    private final String kind;
    private final String version;

    /**
     * @param kind    the kind the body is decoded as ({@code Pod})
     * @param version its version ({@code v1})
     */
    TypedDecoding(ResourceSchema schema, String kind, String version) {
        this.schema = schema;
        this.kind = kind;
        this.version = version;
    }

    /** @throws StatusException 400 naming the first value kube's decoder would refuse, in document order */
    void check(JsonNode obj) {
        String error = walk(obj, schema.root(), kind, "");
        if (error != null) {
            throw StatusException.badRequest(kind + " in version \"" + version + "\" cannot be handled as a " + kind
                    + ": " + error);
        }
    }

    /**
     * The error decoding {@code node} as {@code s} gives, or null.
     *
     * @param struct the Go struct holding the field being decoded (Go's UnmarshalTypeError.Struct)
     * @param path   the JSON field names from the object down to it (its Field)
     */
    private String walk(JsonNode node, JsonNode s, String struct, String path) {
        if (node == null || node.isNull() || s == null) {
            return null;
        }
        String ref = ref(s);
        JsonNode def = ref == null ? s : schema.definitions().get(ref);
        if (def == null) {
            return null;
        }
        if (QUANTITY.equals(ref)) {
            return quantity(node);
        }
        if (INT_OR_STRING.equals(ref) || "int-or-string".equals(def.path("format").asText())
                || def.path("x-kubernetes-int-or-string").asBoolean(false)) {
            return intOrString(node);
        }
        if ("date-time".equals(def.path("format").asText())) {
            return dateTime(node);
        }
        if (def.path("x-kubernetes-preserve-unknown-fields").asBoolean(false) && !def.has("properties")) {
            return null;
        }
        String type = def.path("type").asText("");
        switch (type) {
            case "object" -> {
                JsonNode properties = def.get("properties");
                JsonNode additional = def.get("additionalProperties");
                boolean struct_ = properties != null && properties.isObject();
                boolean map = additional != null && additional.isObject();
                if (!struct_ && !map) {
                    return null;
                }
                if (!node.isObject()) {
                    return typeError(node, struct, path, goType(s));
                }
                String inner = struct_ ? (ref != null ? shortName(ref) : struct) : struct;
                for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> field = it.next();
                    String error;
                    if (struct_ && properties.has(field.getKey())) {
                        String p = path.isEmpty() ? field.getKey() : path + "." + field.getKey();
                        error = walk(field.getValue(), properties.get(field.getKey()), inner, p);
                    } else if (map) {
                        // Go pushes no map key onto the field path.
                        error = walk(field.getValue(), additional, struct, path);
                    } else {
                        error = null;
                    }
                    if (error != null) {
                        return error;
                    }
                }
                return null;
            }
            case "array" -> {
                if (!node.isArray()) {
                    return typeError(node, struct, path, goType(s));
                }
                for (JsonNode item : node) {
                    String error = walk(item, def.get("items"), struct, path);
                    if (error != null) {
                        return error;
                    }
                }
                return null;
            }
            case "integer" -> {
                boolean int32 = "int32".equals(def.path("format").asText());
                if (!node.isNumber()) {
                    return typeError(node, struct, path, goType(s));
                }
                BigInteger v = node.isIntegralNumber() ? node.bigIntegerValue() : null;
                boolean fits = v != null && (int32 ? v.compareTo(INT32_MIN) >= 0 && v.compareTo(INT32_MAX) <= 0
                        : v.compareTo(INT64_MIN) >= 0 && v.compareTo(INT64_MAX) <= 0);
                return fits ? null : typeError(node, struct, path, goType(s));
            }
            case "number" -> {
                return node.isNumber() ? null : typeError(node, struct, path, goType(s));
            }
            case "boolean" -> {
                return node.isBoolean() ? null : typeError(node, struct, path, goType(s));
            }
            case "string" -> {
                return node.isTextual() ? null : typeError(node, struct, path, goType(s));
            }
            default -> {
                return null;
            }
        }
    }

    /** Go's UnmarshalTypeError: a number is named with its value when it cannot become the integer asked for. */
    private static String typeError(JsonNode node, String struct, String path, String goType) {
        String value = node.isNumber() && (goType.startsWith("int") || goType.startsWith("uint"))
                ? "number " + GoNumbers.format(node) : jsonType(node);
        return "json: cannot unmarshal " + value + " into Go struct field " + struct + "." + path + " of type " + goType;
    }

    private static String jsonType(JsonNode node) {
        return node.getNodeType() == JsonNodeType.BOOLEAN ? "bool" : node.isNumber() ? "number"
                : node.isTextual() ? "string" : node.isArray() ? "array" : "object";
    }

    /** Quantity.UnmarshalJSON: the string's text, or a number's or any other value's JSON, as ParseQuantity reads it. */
    private static String quantity(JsonNode node) {
        String text = node.isTextual() ? node.textValue() : node.isNumber() ? node.asText() : jsonType(node);
        try {
            Quantity.parseJson(text);
            return null;
        } catch (InvalidQuantityException e) {
            return e.getMessage();
        }
    }

    private static String intOrString(JsonNode node) {
        if (node.isTextual()) {
            return null;
        }
        if (node.isIntegralNumber() && node.canConvertToInt()) {
            return null;
        }
        return "json: cannot unmarshal " + (node.isNumber() ? "number " + GoNumbers.format(node) : jsonType(node))
                + " into Go value of type int32";
    }

    private static String dateTime(JsonNode node) {
        if (!node.isTextual()) {
            return "json: cannot unmarshal " + jsonType(node) + " into Go value of type string";
        }
        try {
            OffsetDateTime.parse(node.textValue());
            return null;
        } catch (DateTimeParseException e) {
            return "parsing time \"" + node.textValue() + "\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \""
                    + node.textValue() + "\" as \"2006\"";
        }
    }

    /** The Go type of a field of schema {@code s}, as Go's decoder names it ({@code []v1.Container}). */
    private String goType(JsonNode s) {
        String ref = ref(s);
        if (ref != null) {
            int dot = ref.lastIndexOf('.');
            int pkg = ref.lastIndexOf('.', dot - 1);
            return ref.substring(pkg + 1);
        }
        String format = s.path("format").asText("");
        return switch (s.path("type").asText("")) {
            case "integer" -> format.equals("int32") ? "int32" : "int64";
            case "number" -> format.equals("float") ? "float32" : "float64";
            case "boolean" -> "bool";
            case "string" -> format.equals("byte") ? "[]uint8" : "string";
            case "array" -> "[]" + goType(s.path("items"));
            case "object" -> s.get("additionalProperties") instanceof com.fasterxml.jackson.databind.node.ObjectNode a
                    ? "map[string]" + goType(a) : "map[string]interface {}";
            default -> "interface {}";
        };
    }

    private static String shortName(String ref) {
        return ref.substring(ref.lastIndexOf('.') + 1);
    }

    /** The definition a schema names through {@code $ref} or an {@code allOf} of one, or null. */
    private static String ref(JsonNode s) {
        JsonNode ref = s.get("$ref");
        if (ref == null && s.path("allOf").size() == 1) {
            ref = s.path("allOf").get(0).get("$ref");
        }
        return ref != null && ref.isTextual() && ref.asText().startsWith(REF_PREFIX)
                ? ref.asText().substring(REF_PREFIX.length()) : null;
    }
}
