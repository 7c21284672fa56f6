package io.kubelix.support.cel;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.collect.ImmutableCollection;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import dev.cel.common.types.CelType;
import dev.cel.common.types.CelTypeProvider;
import dev.cel.common.types.ListType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.StructType;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The CEL types of OpenAPI schemas, as kube's {@code SchemaDeclType} (apiserver/pkg/cel/common)
 * declares them: an object with {@code properties} is a struct of those fields (so a misspelt field is
 * a compile error), one with {@code additionalProperties} a map, arrays lists, {@code integer}
 * {@code int}, {@code number} {@code double}, {@code string} and {@code boolean} theirs,
 * {@code x-kubernetes-int-or-string} and untyped schemas {@code dyn}. As kube, the root of a resource
 * and an {@code x-kubernetes-embedded-resource} also have {@code apiVersion}, {@code kind} and a
 * {@code metadata} of only {@code name} and {@code generateName}, unless they declare those
 * themselves (as the full ObjectMeta of a built-in kind's schema does); property names are escaped as
 * kube escapes them ({@link CelNames}), and those that cannot be are left out. Strings of the
 * {@code date}, {@code date-time}, {@code duration} and
 * {@code byte} formats are {@code dyn} here, since rules see them as strings at run time.
 */
final class SchemaDeclTypes implements CelTypeProvider {
    private final Map<String, CelType> structs = new LinkedHashMap<>();

    /** The type of {@code schema}, its object types named under {@code name}. */
    CelType declare(String name, JsonNode schema, boolean resourceRoot) {
        return type(name, schema, resourceRoot);
    }

    /**
     * An object type of the given fields (kube's composition type of {@code variables}), replacing
     * one declared before under the same name. A type the checker left open (a type parameter, as
     * in {@code []}) is {@code dyn}, as kube declares a variable of a type it cannot name.
     */
    CelType declareObject(String name, Map<String, CelType> fields) {
        Map<String, CelType> declared = new LinkedHashMap<>();
        fields.forEach((k, t) -> declared.put(k, declarable(t)));
        StructType struct = struct(name, declared);
        structs.put(name, struct);
        return struct;
    }

    private static CelType declarable(CelType t) {
        if (t == null) {
            return SimpleType.DYN;
        }
        return switch (t.kind()) {
            case TYPE_PARAM, ERROR -> SimpleType.DYN;
            case LIST -> ListType.create(declarable(((ListType) t).elemType()));
            case MAP -> MapType.create(declarable(((MapType) t).keyType()), declarable(((MapType) t).valueType()));
            default -> t;
        };
    }

    private CelType type(String name, JsonNode s, boolean resourceRoot) {
        if (s == null || !s.isObject() || s.path("x-kubernetes-int-or-string").asBoolean(false)) {
            return SimpleType.DYN;
        }
        // kube's WithTypeAndObjectMeta: a resource root declaring these fields itself keeps its own
        boolean root = (resourceRoot || s.path("x-kubernetes-embedded-resource").asBoolean(false))
                && !declaresTypeAndObjectMeta(s);
        switch (s.path("type").asText("")) {
            case "array":
                return ListType.create(type(name + "@items", s.path("items"), false));
            case "object": {
                JsonNode additional = s.path("additionalProperties");
                if (additional.isObject()) {
                    return MapType.create(SimpleType.STRING, type(name + "@additionalProperties", additional, false));
                }
                Map<String, CelType> fields = new LinkedHashMap<>();
                if (root) {
                    fields.put("apiVersion", SimpleType.STRING);
                    fields.put("kind", SimpleType.STRING);
                }
                for (Iterator<Map.Entry<String, JsonNode>> it = s.path("properties").fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> p = it.next();
                    CelNames.escape(p.getKey()).ifPresent(field ->
                            fields.put(field, type(name + "." + field, p.getValue(), false)));
                }
                if (root) {
                    String meta = name + ".metadata";
                    structs.put(meta, struct(meta, Map.of("name", SimpleType.STRING, "generateName", SimpleType.STRING)));
                    fields.put("metadata", structs.get(meta));
                }
                StructType struct = struct(name, fields);
                structs.put(name, struct);
                return struct;
            }
            case "string":
                return switch (s.path("format").asText("")) {
                    case "date", "date-time", "duration", "byte" -> SimpleType.DYN;
                    default -> SimpleType.STRING;
                };
            case "integer":
                return SimpleType.INT;
            case "number":
                return SimpleType.DOUBLE;
            case "boolean":
                return SimpleType.BOOL;
            default:
                return SimpleType.DYN;
        }
    }

    /** Whether a schema declares string {@code kind} and {@code apiVersion} and a {@code metadata} with string {@code name} and {@code generateName}. */
    private static boolean declaresTypeAndObjectMeta(JsonNode s) {
        JsonNode p = s.path("properties");
        JsonNode meta = p.path("metadata");
        return "string".equals(p.path("kind").path("type").asText())
                && "string".equals(p.path("apiVersion").path("type").asText())
                && "object".equals(meta.path("type").asText())
                && "string".equals(meta.path("properties").path("name").path("type").asText())
                && "string".equals(meta.path("properties").path("generateName").path("type").asText());
    }

    private static StructType struct(String name, Map<String, CelType> fields) {
        Map<String, CelType> copy = Map.copyOf(fields);
        return StructType.create(name, ImmutableSet.copyOf(fields.keySet()), f -> Optional.ofNullable(copy.get(f)));
    }

    @Override
    public ImmutableCollection<CelType> types() {
        return ImmutableList.copyOf(structs.values());
    }

    @Override
    public Optional<CelType> findType(String typeName) {
        return Optional.ofNullable(structs.get(typeName));
    }
}
