package io.kubelix.runtime.fieldmanager;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The structured-merge-diff type of a value, read from the resource's OpenAPI schema: a struct
 * (declared {@code properties}), a map ({@code additionalProperties}), a list with its
 * {@code x-kubernetes-list-type} ({@code atomic}, {@code set}, or {@code map} with its
 * {@code x-kubernetes-list-map-keys}), or a scalar; structs and maps are granular unless
 * {@code x-kubernetes-map-type: atomic}. A value without a schema is deduced as kube does for
 * unstructured objects: objects are granular maps, lists are atomic.
 *
 * <p>A list without a list type whose patch strategy is {@code merge} is a map list on its
 * {@code x-kubernetes-patch-merge-key}, or a set without one, as kube's schema conversion falls
 * back to; any other list without a list type is atomic.
 */
final class TypeRef {
    enum Kind { STRUCT, MAP, LIST, SCALAR, UNTYPED }

    enum ListType { ATOMIC, SET, MAP }

    private static final TypeRef DEDUCED = new TypeRef(null, null, null);

    /** The field's own schema, which may carry extensions beside the reference. */
    private final ObjectNode field;
    /** The definition the field refers to, or the field itself. */
    private final ObjectNode def;
    private final Function<JsonNode, ObjectNode> resolve;

    private TypeRef(ObjectNode field, ObjectNode def, Function<JsonNode, ObjectNode> resolve) {
        this.field = field;
        this.def = def;
        this.resolve = resolve;
    }

    /** The type of {@code schema}, null for a value without one. */
    static TypeRef of(JsonNode schema, Function<JsonNode, ObjectNode> resolve) {
        if (!(schema instanceof ObjectNode s)) {
            return DEDUCED;
        }
        ObjectNode target = resolve == null ? null : resolve.apply(s);
        return new TypeRef(s, target != null ? target : s, resolve);
    }

    static TypeRef deduced() {
        return DEDUCED;
    }

    /** The kind of {@code value} under this type; an untyped value's kind follows its JSON shape. */
    Kind kind(JsonNode value) {
        Kind declared = declared();
        if (declared != Kind.UNTYPED) {
            return declared;
        }
        if (value != null && value.isObject()) {
            return Kind.MAP;
        }
        return value != null && value.isArray() ? Kind.LIST : Kind.SCALAR;
    }

    private Kind declared() {
        if (def == null) {
            return Kind.UNTYPED;
        }
        if (def.path("x-kubernetes-int-or-string").asBoolean(false)) {
            return Kind.SCALAR;
        }
        if (def.has("properties")) {
            return Kind.STRUCT;
        }
        if (def.get("additionalProperties") instanceof ObjectNode) {
            return Kind.MAP;
        }
        String type = def.path("type").asText("");
        return switch (type) {
            case "array" -> Kind.LIST;
            case "string", "integer", "number", "boolean" -> Kind.SCALAR;
            default -> Kind.UNTYPED;
        };
    }

    /** Whether a struct or map is atomic ({@code x-kubernetes-map-type: atomic}), or a value is an atomic list. */
    boolean atomic(JsonNode value) {
        return switch (kind(value)) {
            case STRUCT, MAP -> "atomic".equals(extension("x-kubernetes-map-type"))
                    || "atomic".equals(extension("x-kubernetes-structure-type"));
            case LIST -> listType() == ListType.ATOMIC;
            default -> true;
        };
    }

    /**
     * Why a value of an apply configuration does not fit this type (as kube's words, such as
     * {@code expected numeric (int or float), got string}), or null when it fits.
     */
    String mismatch(JsonNode value) {
        Kind k = declared();
        String got = value.isObject() ? "map" : value.isArray() ? "list" : value.isTextual() ? "string"
                : value.isNumber() ? "numeric" : value.isBoolean() ? "boolean" : "null";
        return switch (k) {
            case STRUCT, MAP -> value.isObject() ? null : "expected map, got " + got;
            case LIST -> value.isArray() ? null : "expected list, got " + got;
            case SCALAR -> {
                if (def.path("x-kubernetes-int-or-string").asBoolean(false)) {
                    yield value.isTextual() || value.isIntegralNumber() ? null : "expected string or int, got " + got;
                }
                yield switch (def.path("type").asText("")) {
                    case "string" -> value.isTextual() ? null : "expected string, got " + got;
                    case "integer", "number" -> value.isNumber() ? null : "expected numeric (int or float), got " + got;
                    case "boolean" -> value.isBoolean() ? null : "expected boolean, got " + got;
                    default -> null;
                };
            }
            default -> null;
        };
    }

    /** Whether the type is a struct with declared fields: kube's Go types hold some of those by value. */
    boolean isStruct() {
        return declared() == Kind.STRUCT;
    }

    /** The type of a struct's or map's member {@code name}. */
    TypeRef member(String name) {
        if (def == null) {
            return DEDUCED;
        }
        JsonNode p = def.path("properties").get(name);
        if (p instanceof ObjectNode) {
            return of(p, resolve);
        }
        JsonNode ap = def.get("additionalProperties");
        return ap instanceof ObjectNode ? of(ap, resolve) : DEDUCED;
    }

    /** Whether a struct's field is required: kube's Go types always encode those, even empty. */
    boolean required(String name) {
        if (def == null) {
            return false;
        }
        for (JsonNode r : def.path("required")) {
            if (r.asText().equals(name)) {
                return true;
            }
        }
        return false;
    }

    /** The type of a list's items. */
    TypeRef items() {
        return def == null ? DEDUCED : of(def.get("items"), resolve);
    }

    ListType listType() {
        if (def == null) {
            return ListType.ATOMIC;
        }
        String t = extension("x-kubernetes-list-type");
        if (t != null) {
            return switch (t) {
                case "map" -> ListType.MAP;
                case "set" -> ListType.SET;
                default -> ListType.ATOMIC;
            };
        }
        String strategy = extension("x-kubernetes-patch-strategy");
        if (strategy != null && strategy.contains("merge")) {
            return extension("x-kubernetes-patch-merge-key") != null ? ListType.MAP : ListType.SET;
        }
        return ListType.ATOMIC;
    }

    /** The key fields of a map list. */
    List<String> keys() {
        List<String> keys = new ArrayList<>();
        JsonNode k = field.get("x-kubernetes-list-map-keys");
        if (k == null) {
            k = def.get("x-kubernetes-list-map-keys");
        }
        if (k != null && k.isArray()) {
            k.forEach(n -> keys.add(n.asText()));
        } else if (extension("x-kubernetes-patch-merge-key") != null) {
            keys.add(extension("x-kubernetes-patch-merge-key"));
        }
        return keys;
    }

    /** The schema default of a map list item's key field, or null: an item may leave a defaulted key out. */
    JsonNode keyDefault(String key) {
        JsonNode d = items().member(key).schemaDefault();
        return d == null || d.isNull() ? null : d;
    }

    private JsonNode schemaDefault() {
        if (field != null && field.has("default")) {
            return field.get("default");
        }
        return def == null ? null : def.get("default");
    }

    private String extension(String name) {
        if (field == null) {
            return null;
        }
        JsonNode v = field.get(name);
        if (v == null) {
            v = def.get(name);
        }
        return v == null || !v.isTextual() ? null : v.asText();
    }
}
