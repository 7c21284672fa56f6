package io.kubelix.apiextensions.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The checks kube makes of a CRD version's {@code openAPIV3Schema}
 * (ValidateCustomResourceDefinitionOpenAPISchema and structuralschema.ValidateStructural): OpenAPI
 * features kube does not support, a type everywhere it is needed (the schema is structural),
 * {@code object} at the root, {@code metadata} limited to {@code name} and {@code generateName},
 * the {@code x-kubernetes-*} extensions used consistently, and patterns that compile. Messages and
 * field paths are kube's.
 */
public final class SchemaValidation {
    static final List<String> TYPES = List.of("array", "boolean", "integer", "number", "object", "string");
    private static final Set<String> META_FIELDS = Set.of("metadata", "kind", "apiVersion");
    /** Fields allowed at the root of the schema when the status subresource is enabled. */
    private static final Set<String> ROOT_WITH_STATUS = Set.of("description", "type", "format", "title", "maximum",
            "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength", "minLength", "pattern", "maxItems",
            "minItems", "uniqueItems", "multipleOf", "required", "items", "properties", "externalDocs", "example",
            "x-kubernetes-preserve-unknown-fields", "x-kubernetes-validations");

    private enum Level { ROOT, ITEM, FIELD }

    private SchemaValidation() {
    }

    /** Errors of the schema at {@code path} ({@code spec.versions[0].schema.openAPIV3Schema}). */
    public static List<FieldError> validate(ObjectNode schema, String path, boolean statusSubresource) {
        List<FieldError> errs = new ArrayList<>();
        if (statusSubresource) {
            String type = schema.path("type").asText("");
            if (!type.isEmpty() && !type.equals("object")) {
                errs.add(FieldError.invalid(path + ".type", type,
                        "only \"object\" is allowed as the type at the root of the schema if the status subresource is enabled"));
            }
            for (Iterator<String> it = schema.fieldNames(); it.hasNext(); ) {
                if (!ROOT_WITH_STATUS.contains(it.next())) {
                    errs.add(FieldError.invalid(path, null, "only [Description Type Format Title Maximum "
                            + "ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems "
                            + "UniqueItems MultipleOf Required Items Properties ExternalDocs Example "
                            + "XPreserveUnknownFields XValidations] fields are allowed at the root of the schema if the "
                            + "status subresource is enabled"));
                    break;
                }
            }
        }
        if (schema.path("nullable").asBoolean(false)) {
            errs.add(FieldError.forbidden(path + ".nullable", "nullable cannot be true at the root"));
        }
        standard(schema, path, true, false, errs);
        List<FieldError> structural = new ArrayList<>();
        structural(schema, Level.ROOT, path, structural);
        structural.sort(java.util.Comparator.comparing(FieldError::message));
        errs.addAll(structural);
        if (errs.isEmpty()) {
            // as kube, rules are compiled once the schema is otherwise valid
            errs.addAll(io.kubelix.apiextensions.schema.ValidationRules.compileErrors(schema, path));
        }
        return errs;
    }

    /** The standard checks of every schema node (specStandardValidatorV3 and the extension checks), recursively. */
    private static void standard(JsonNode s, String path, boolean root, boolean insideMeta, List<FieldError> errs) {
        if (!s.isObject()) {
            return;
        }
        String type = s.path("type").asText("");
        if (s.has("type") && s.get("type").isNull()) {
            errs.add(FieldError.forbidden(path + ".type", "type cannot be set to null, use nullable as an alternative"));
        } else if (!type.isEmpty() && !TYPES.contains(type)) {
            errs.add(FieldError.notSupported(path + ".type", type, TYPES));
        }
        for (String[] unsupported : new String[][] {{"id", "id is not supported"},
                {"additionalItems", "additionalItems is not supported"},
                {"patternProperties", "patternProperties is not supported"},
                {"definitions", "definitions is not supported"}, {"dependencies", "dependencies is not supported"},
                {"$ref", "$ref is not supported"}}) {
            if (s.has(unsupported[0])) {
                errs.add(FieldError.forbidden(path + "." + unsupported[0], unsupported[1]));
            }
        }
        if (s.path("items").isArray()) {
            errs.add(FieldError.forbidden(path + ".items", "items must be a schema object and not an array"));
        }
        if (insideMeta && s.path("x-kubernetes-embedded-resource").asBoolean(false)) {
            errs.add(FieldError.forbidden(path + ".x-kubernetes-embedded-resource", "must not be used inside of resource meta"));
        }
        if (s.path("uniqueItems").asBoolean(false)) {
            errs.add(FieldError.forbidden(path + ".uniqueItems",
                    "uniqueItems cannot be set to true since the runtime complexity becomes quadratic"));
        }
        JsonNode additional = s.get("additionalProperties");
        if (additional != null && s.path("properties").size() > 0
                && (additional.isBoolean() && !additional.asBoolean() || additional.isObject())) {
            errs.add(FieldError.forbidden(path + ".additionalProperties", "additionalProperties and properties are mutual exclusive"));
        }
        if (s.has("x-kubernetes-preserve-unknown-fields") && !s.get("x-kubernetes-preserve-unknown-fields").asBoolean()) {
            errs.add(FieldError.invalid(path + ".x-kubernetes-preserve-unknown-fields", false, "must be true or undefined"));
        }
        String mapType = s.path("x-kubernetes-map-type").asText(null);
        if (mapType != null) {
            if (!type.equals("object")) {
                typeNeeded(errs, path, type, "must be object if x-kubernetes-map-type is specified");
            }
            if (!mapType.equals("atomic") && !mapType.equals("granular")) {
                errs.add(FieldError.notSupported(path + ".x-kubernetes-map-type", mapType, List.of("atomic", "granular")));
            }
        }
        String listType = s.path("x-kubernetes-list-type").asText(null);
        if (listType != null && !type.equals("array")) {
            typeNeeded(errs, path, type, "must be array if x-kubernetes-list-type is specified");
        }
        if (listType != null && !List.of("atomic", "set", "map").contains(listType)) {
            errs.add(FieldError.notSupported(path + ".x-kubernetes-list-type", listType, List.of("atomic", "set", "map")));
        }
        JsonNode keys = s.path("x-kubernetes-list-map-keys");
        if (keys.size() > 0) {
            if (listType == null) {
                errs.add(FieldError.required(path + ".x-kubernetes-list-type", "must be map if x-kubernetes-list-map-keys is non-empty"));
            } else if (!listType.equals("map")) {
                errs.add(FieldError.invalid(path + ".x-kubernetes-list-type", listType,
                        "must be map if x-kubernetes-list-map-keys is non-empty"));
            }
        }
        if ("map".equals(listType)) {
            JsonNode items = s.path("items");
            if (keys.isEmpty()) {
                errs.add(FieldError.required(path + ".x-kubernetes-list-map-keys", "must not be empty if x-kubernetes-list-type is map"));
            }
            if (!items.isObject()) {
                errs.add(FieldError.required(path + ".items", "must have a schema if x-kubernetes-list-type is map"));
            } else if (!"object".equals(items.path("type").asText())) {
                errs.add(FieldError.invalid(path + ".items.type", items.path("type").asText(""),
                        "must be object if parent array's x-kubernetes-list-type is map"));
            } else {
                Set<String> seen = new HashSet<>();
                for (JsonNode k : keys) {
                    JsonNode prop = items.path("properties").path(k.asText());
                    if (prop.isMissingNode()) {
                        errs.add(FieldError.invalid(path + ".x-kubernetes-list-map-keys", keys.toString(),
                                "entries must all be names of item properties"));
                    } else if (List.of("array", "object").contains(prop.path("type").asText())) {
                        errs.add(FieldError.invalid(path + ".items.properties[" + k.asText() + "].type", "object",
                                "must be a scalar type if parent array's x-kubernetes-list-type is map"));
                    } else if (!prop.has("default") && !contains(items.path("required"), k.asText())) {
                        errs.add(FieldError.required(path + ".items.properties[" + k.asText() + "].default",
                                "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property"));
                    }
                    if (!seen.add(k.asText())) {
                        errs.add(FieldError.invalid(path + ".x-kubernetes-list-map-keys", keys.toString(),
                                "must not contain duplicate entries"));
                    }
                }
            }
        }
        if (s.path("x-kubernetes-int-or-string").asBoolean(false)) {
            if (s.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)) {
                errs.add(FieldError.invalid(path + ".x-kubernetes-preserve-unknown-fields", true,
                        "must be false if x-kubernetes-int-or-string is true"));
            }
            if (s.path("x-kubernetes-embedded-resource").asBoolean(false)) {
                errs.add(FieldError.invalid(path + ".x-kubernetes-embedded-resource", true,
                        "must be false if x-kubernetes-int-or-string is true"));
            }
        }
        String pattern = s.path("pattern").asText(null);
        if (pattern != null) {
            try {
                Pattern.compile(pattern);
            } catch (PatternSyntaxException e) {
                errs.add(FieldError.invalid(path + ".pattern", pattern,
                        "must be a valid regular expression, but isn't: " + e.getDescription()));
            }
        }
        JsonNode rules = s.path("x-kubernetes-validations");
        for (int i = 0; i < rules.size(); i++) {
            String rule = rules.get(i).path("rule").asText("").strip();
            if (rule.isEmpty()) {
                errs.add(FieldError.required(path + ".x-kubernetes-validations[" + i + "].rule", "rule is not specified"));
            }
        }
        for (Map.Entry<String, JsonNode> p : iterable(s.path("properties"))) {
            boolean meta = (root || s.path("x-kubernetes-embedded-resource").asBoolean(false)) && META_FIELDS.contains(p.getKey());
            standard(p.getValue(), path + ".properties[" + p.getKey() + "]", false, insideMeta || meta, errs);
        }
        if (s.path("items").isObject()) {
            standard(s.get("items"), path + ".items", false, insideMeta, errs);
        }
        if (additional != null && additional.isObject()) {
            standard(additional, path + ".additionalProperties", false, insideMeta, errs);
        }
        for (String composite : List.of("allOf", "anyOf", "oneOf")) {
            JsonNode list = s.path(composite);
            for (int i = 0; i < list.size(); i++) {
                standard(list.get(i), path + "." + composite + "[" + i + "]", false, insideMeta, errs);
            }
        }
        if (s.path("not").isObject()) {
            standard(s.get("not"), path + ".not", false, insideMeta, errs);
        }
    }

    private static void typeNeeded(List<FieldError> errs, String path, String type, String why) {
        if (type.isEmpty()) {
            errs.add(FieldError.required(path + ".type", why));
        } else {
            errs.add(FieldError.invalid(path + ".type", type, why));
        }
    }

    /** validateStructuralInvariants: the type is given wherever a value can be, and metadata stays metadata. */
    private static void structural(JsonNode s, Level level, String path, List<FieldError> errs) {
        if (!s.isObject()) {
            return;
        }
        String type = s.path("type").asText("");
        boolean embedded = s.path("x-kubernetes-embedded-resource").asBoolean(false);
        boolean preserve = s.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
        boolean intOrString = s.path("x-kubernetes-int-or-string").asBoolean(false);
        if (type.equals("array") && !s.path("items").isObject()) {
            errs.add(FieldError.required(path + ".items", "must be specified"));
        }
        if (s.path("items").isObject()) {
            structural(s.get("items"), Level.ITEM, path + ".items", errs);
        }
        for (Map.Entry<String, JsonNode> p : iterable(s.path("properties"))) {
            structural(p.getValue(), Level.FIELD, path + ".properties[" + p.getKey() + "]", errs);
        }
        JsonNode additional = s.get("additionalProperties");
        if (additional != null) {
            if (level == Level.ROOT) {
                errs.add(FieldError.forbidden(path + ".additionalProperties", "must not be used at the root"));
            }
            if (additional.isObject()) {
                structural(additional, Level.FIELD, path + ".additionalProperties", errs);
            }
        }
        for (String composite : List.of("allOf", "anyOf", "oneOf")) {
            JsonNode list = s.path(composite);
            for (int i = 0; i < list.size(); i++) {
                valueValidation(list.get(i), path + "." + composite + "[" + i + "]", errs);
            }
        }
        if (s.path("not").isObject()) {
            valueValidation(s.get("not"), path + ".not", errs);
        }
        if (embedded && !type.equals("object")) {
            typeNeeded(errs, path, type, "must be object if x-kubernetes-embedded-resource is true");
        } else if (type.isEmpty() && !intOrString && !preserve) {
            errs.add(FieldError.required(path + ".type", switch (level) {
                case ROOT -> "must not be empty at the root";
                case ITEM -> "must not be empty for specified array items";
                case FIELD -> "must not be empty for specified object fields";
            }));
        }
        if (embedded && additional != null) {
            errs.add(FieldError.forbidden(path + ".additionalProperties", "must not be used if x-kubernetes-embedded-resource is set"));
        }
        if (level == Level.ROOT && !type.isEmpty() && !type.equals("object")) {
            errs.add(FieldError.invalid(path + ".type", type, "must be object at the root"));
        }
        boolean checkMetadata = level == Level.ROOT || embedded;
        JsonNode props = s.path("properties");
        if (checkMetadata && props.has("kind") && !"string".equals(props.path("kind").path("type").asText())) {
            errs.add(FieldError.invalid(path + ".properties[kind].type", props.path("kind").path("type").asText(""), "must be string"));
        }
        if (checkMetadata && props.has("apiVersion") && !"string".equals(props.path("apiVersion").path("type").asText())) {
            errs.add(FieldError.invalid(path + ".properties[apiVersion].type",
                    props.path("apiVersion").path("type").asText(""), "must be string"));
        }
        if (props.has("metadata")) {
            JsonNode meta = props.get("metadata");
            String mpath = path + ".properties[metadata]";
            if (checkMetadata && !"object".equals(meta.path("type").asText())) {
                errs.add(FieldError.invalid(mpath + ".type", meta.path("type").asText(""), "must be object"));
            }
            if (level == Level.ROOT) {
                ObjectNode rest = ((ObjectNode) meta).deepCopy();
                rest.remove(List.of("type", "description", "default"));
                JsonNode mprops = rest.path("properties");
                Set<String> names = new HashSet<>();
                mprops.fieldNames().forEachRemaining(names::add);
                names.removeAll(Set.of("name", "generateName"));
                if (names.isEmpty()) {
                    rest.remove("properties");
                }
                if (!rest.isEmpty()) {
                    errs.add(FieldError.forbidden(mpath, "must not specify anything other than name and generateName, "
                            + "but metadata is implicitly specified"));
                }
            }
        }
        if (embedded && !preserve && props.isEmpty()) {
            errs.add(FieldError.required(path + ".properties",
                    "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields"));
        }
    }

    /** Inside allOf, anyOf, oneOf and not, only value validations may appear (validateValueValidation). */
    private static void valueValidation(JsonNode s, String path, List<FieldError> errs) {
        if (!s.isObject()) {
            return;
        }
        // kube's int-or-string patterns carry types inside anyOf: those are allowed.
        boolean intOrStringBranch = s.size() == 1 && s.has("type")
                && List.of("integer", "string").contains(s.path("type").asText());
        if (s.has("type") && !intOrStringBranch) {
            errs.add(FieldError.forbidden(path + ".type", "must be empty to be structural"));
        }
        for (String[] f : new String[][] {{"additionalProperties", "must be undefined to be structural"},
                {"default", "must be undefined to be structural"}, {"title", "must be empty to be structural"},
                {"description", "must be empty to be structural"}, {"nullable", "must be false to be structural"},
                {"x-kubernetes-preserve-unknown-fields", "must be false to be structural"},
                {"x-kubernetes-embedded-resource", "must be false to be structural"},
                {"x-kubernetes-int-or-string", "must be false to be structural"},
                {"x-kubernetes-list-map-keys", "must be empty to be structural"},
                {"x-kubernetes-list-type", "must be undefined to be structural"},
                {"x-kubernetes-map-type", "must be undefined to be structural"},
                {"x-kubernetes-validations", "must be empty to be structural"}}) {
            if (s.has(f[0]) && !(s.get(f[0]).isBoolean() && !s.get(f[0]).asBoolean())) {
                errs.add(FieldError.forbidden(path + "." + f[0], f[1]));
            }
        }
    }

    /** The schema of the field a simple path such as {@code .spec.color} names, or null. */
    public static JsonNode schemaAt(JsonNode schema, String jsonPath) {
        if (!jsonPath.startsWith(".")) {
            return null;
        }
        JsonNode s = schema;
        for (String part : jsonPath.substring(1).split("\\.")) {
            JsonNode next = s.path("properties").get(part);
            if (next == null) {
                return null;
            }
            s = next;
        }
        return s;
    }

    private static boolean contains(JsonNode array, String value) {
        for (JsonNode v : array) {
            if (value.equals(v.asText())) {
                return true;
            }
        }
        return false;
    }

    private static Iterable<Map.Entry<String, JsonNode>> iterable(JsonNode node) {
        return node::fields;
    }
}
