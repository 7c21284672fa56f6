package io.kubelix.runtime.validation;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupVersionKind;
import io.kubelix.api.schema.ResourceSchema;
import io.kubelix.runtime.codec.Codecs;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Server-side field validation ({@code fieldValidation=Strict|Warn|Ignore}) of create, update and
 * patch bodies, as kube-apiserver does it for built-in types: duplicate fields, and fields the
 * resource's schema does not know (see {@link UnknownFields}; a resource without a schema has
 * none). Strict refuses them (400, kube's "strict decoding error"), Warn (the default when the
 * parameter is unset) keeps the last of duplicates, drops unknown fields and sends a
 * {@code Warning} header for each, Ignore does the same silently.
 *
 * <p>The problems are listed as kube lists them: for a JSON body in document order; for a YAML
 * body the duplicates ({@code line N: key "x" already set in map}) first, then the unknown fields
 * in field-name order; for a patch the patch's own duplicates (and for a JSON patch, its
 * operations' unknown fields, {@code json patch unknown field "[0].foo"}), then the unknown fields
 * of the patched object in field-name order.
 *
 * <p>The handler reads the parameter ({@link #directive}) and the body, and sends the warnings
 * collected in the request's context.
 */
public final class FieldValidation {
    private static final List<String> DIRECTIVES = List.of("", "Ignore", "Strict", "Warn");
    /** Only parses YAML for the duplicate scan; the YAML trees come from {@link Codecs}. */
    private static final YAMLFactory YAML = new YAMLFactory();
    /** The fields of a JSON patch operation (RFC 6902); its value is free-form. */
    private static final ResourceSchema JSON_PATCH_OPERATIONS = jsonPatchSchema();

    public enum Directive { IGNORE, WARN, STRICT }

    /**
     * What a body is decoded as: its resource's schema (null when it has none), the kind it is
     * typed as (autoscaling/v1 Scale on a {@code scale} subresource), and the kind and version of
     * the endpoint, which a strict decoding error names.
     */
    public record Target(ResourceSchema schema, GroupVersionKind kind, String endpointKind, String endpointVersion) {
    }

    private FieldValidation() {
    }

    /**
     * The directive of a request's {@code fieldValidation} parameter (empty when unset); an unknown
     * value is 422 on {@code CreateOptions}, {@code UpdateOptions} or {@code PatchOptions}, by {@code verb}.
     */
    public static Directive directive(String v, String verb) {
        return switch (v) {
            case "", "Warn" -> Directive.WARN;
            case "Ignore" -> Directive.IGNORE;
            case "Strict" -> Directive.STRICT;
            default -> throw StatusException.invalid(optionsKind(verb), "meta.k8s.io", "",
                    List.of(FieldError.notSupported("fieldValidation", v, DIRECTIVES)));
        };
    }

    /**
     * A create or update body, JSON or YAML, as an object: the last of duplicate fields kept,
     * unknown fields dropped, each reported per the directive (as warnings in {@code ctx}).
     */
    public static ObjectNode decodeObject(byte[] body, boolean yaml, Target target, Directive directive,
                                          RequestContext ctx) throws IOException {
        ResourceSchema schema = target.schema();
        UnknownFields unknown = schema == null ? null : new UnknownFields(schema);
        List<String> problems = new ArrayList<>();
        ObjectNode obj;
        if (yaml) {
            List<String> duplicates = scan(body, true, null, "");
            obj = Codecs.decodeObject(body, true);
            List<String> unknowns = unknown == null ? List.of() : unknown.find(obj, true);
            if (directive == Directive.STRICT && !duplicates.isEmpty()) {
                problems.add("yaml: unmarshal errors:\n  " + String.join("\n  ", duplicates));
            } else {
                problems.addAll(duplicates);
            }
            unknowns.forEach(p -> problems.add(unknownField(p)));
        } else {
            problems.addAll(scan(body, false, unknown, ""));
            JsonNode decoded = problems.isEmpty() ? Codecs.decodeObject(body, false) : lastWins(body);
            // Not an object: let the codec word the error.
            obj = decoded instanceof ObjectNode o ? o : Codecs.decodeObject(body, false);
            if (unknown != null) {
                unknown.find(obj, true);
            }
        }
        TypedDecoding typed = typed(target);
        if (typed != null) {
            typed.check(obj);
        }
        if (problems.isEmpty()) {
            return obj;
        }
        if (directive == Directive.STRICT) {
            String apiVersion = target.endpointVersion();
            String kind = target.endpointKind();
            throw StatusException.badRequest(kind + " in version \"" + apiVersion + "\" cannot be handled as a " + kind
                    + ": strict decoding error: " + String.join(", ", problems));
        }
        if (directive == Directive.WARN) {
            problems.forEach(ctx::addWarning);
        }
        return obj;
    }

    /**
     * A patch body, the last of duplicate fields kept, with the problems found in it (duplicate
     * fields; for a JSON patch, unknown fields of its operations). They are reported with the
     * patched object's by {@link Patch#checkPatched}.
     */
    public static Patch decodePatch(byte[] body, boolean jsonPatch, Target target, Directive directive)
            throws IOException {
        List<String> problems = jsonPatch
                ? scan(body, false, new UnknownFields(JSON_PATCH_OPERATIONS), "json patch ")
                : scan(body, false, null, "");
        JsonNode patch = problems.isEmpty() ? Codecs.decode(body, false) : lastWins(body);
        ResourceSchema schema = target.schema();
        return new Patch(patch, directive, problems, schema == null ? null : new UnknownFields(schema), typed(target));
    }

    /**
     * A server-side apply configuration (YAML, of which JSON is a part), the last of duplicate
     * fields kept. Its unknown fields are dropped here, before the field manager sees them, and
     * reported with its duplicates by {@link Patch#checkPatched}.
     */
    public static Patch decodeApply(byte[] body, Target target, Directive directive) throws IOException {
        List<String> problems = new ArrayList<>();
        List<String> duplicates = scan(body, true, null, "");
        if (directive == Directive.STRICT && !duplicates.isEmpty()) {
            problems.add("yaml: unmarshal errors:\n  " + String.join("\n  ", duplicates));
        } else {
            problems.addAll(duplicates);
        }
        JsonNode config = Codecs.decode(body, true);
        ResourceSchema schema = target.schema();
        if (schema != null && config instanceof ObjectNode o) {
            new UnknownFields(schema).find(o, true).forEach(p -> problems.add(unknownField(p)));
        }
        return new Patch(config, directive, problems, null, typed(target));
    }

    /** A decoded patch, its own problems, and the schema its result is checked against. */
    public static final class Patch {
        private final JsonNode body;
        private final Directive directive;
        private final List<String> problems;
        private final UnknownFields schema;
        private final TypedDecoding typed;

        private Patch(JsonNode body, Directive directive, List<String> problems, UnknownFields schema,
                      TypedDecoding typed) {
            this.body = body;
            this.directive = directive;
            this.problems = problems;
            this.schema = schema;
            this.typed = typed;
        }

        /** The patch, or the apply configuration, as decoded. */
        public JsonNode body() {
            return body;
        }

        /**
         * Checks the patched object: Strict refuses the patch's problems and the object's unknown
         * fields together; otherwise the unknown fields are dropped. Returns the problems to report
         * as warnings once the patch is stored.
         */
        public List<String> checkPatched(ObjectNode patched) {
            List<String> all = new ArrayList<>(problems);
            if (schema != null) {
                schema.find(patched, true).forEach(p -> all.add(unknownField(p)));
            }
            if (typed != null) {
                typed.check(patched);
            }
            if (directive == Directive.STRICT && !all.isEmpty()) {
                throw StatusException.badRequest("strict decoding error: " + String.join(", ", all));
            }
            return directive == Directive.WARN ? all : List.of();
        }
    }

    /**
     * The typed decoding of the endpoint's kind: kube's built-in kinds, whose schemas are the
     * Kubernetes API's definitions ({@code io.k8s.*}), which kube decodes into Go types. Custom
     * resources (a CRD's schema) and plugins' own kinds are decoded as kube decodes custom resources,
     * as unstructured JSON checked by their own validation (a wrong type is its 422, not a 400); null
     * for those and for kinds without a schema.
     */
    private static TypedDecoding typed(Target target) {
        ResourceSchema schema = target.schema();
        return schema == null || !schema.name().startsWith("io.k8s.") ? null
                : new TypedDecoding(schema, target.kind().kind(), target.kind().groupVersion().version());
    }

    private static String unknownField(String path) {
        return "unknown field \"" + path + "\"";
    }

    /**
     * The duplicate fields of a JSON or YAML document in kube's words, in document order:
     * {@code duplicate field "metadata.name"} for JSON, {@code line N: key "x" already set in map}
     * for YAML; for JSON with {@code unknown}, also the unknown fields ({@code unknown field "spec.foo"}),
     * a field both unknown and repeated being reported once, as unknown. Each message starts with
     * {@code prefix}. A document that does not parse has none here; decoding it reports the syntax error.
     */
    static List<String> scan(byte[] body, boolean yaml, UnknownFields unknown, String prefix) {
        List<String> found = new ArrayList<>();
        JsonFactory factory = yaml ? YAML : Codecs.json().getFactory();
        try (JsonParser p = factory.createParser(body)) {
            p.disable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
            Deque<Container> open = new ArrayDeque<>();
            String pendingName = null;
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                switch (t) {
                    case START_OBJECT, START_ARRAY -> {
                        Container parent = open.peek();
                        String path = parent == null ? "" : parent.childPath(pendingName);
                        JsonNode schema = parent == null ? (unknown == null ? UnknownFields.ANY : unknown.root())
                                : parent.childSchema(unknown, pendingName);
                        if (parent != null && parent.skipping(pendingName)) {
                            p.skipChildren();
                            advance(parent);
                            continue;
                        }
                        open.push(new Container(t == JsonToken.START_ARRAY, path, schema));
                    }
                    case END_OBJECT, END_ARRAY -> {
                        open.pop();
                        if (!open.isEmpty()) {
                            advance(open.peek());
                        }
                    }
                    case FIELD_NAME -> {
                        Container o = open.peek();
                        pendingName = p.currentName();
                        boolean repeated = !o.names.add(pendingName);
                        String path = o.childPath(pendingName);
                        boolean isUnknown = unknown != null && o.schema != UnknownFields.ANY
                                && unknown.field(o.schema, pendingName).unknown();
                        if (isUnknown) {
                            o.unknown.add(pendingName);
                            if (!repeated) {
                                found.add(prefix + unknownField(path));
                            }
                        } else if (repeated) {
                            found.add(prefix + (yaml ? "line " + p.currentLocation().getLineNr() + ": key \""
                                    + pendingName + "\" already set in map" : "duplicate field \"" + path + "\""));
                        }
                    }
                    default -> {
                        if (!open.isEmpty()) {
                            advance(open.peek());
                        }
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
        return found;
    }

    private static void advance(Container c) {
        if (c.array) {
            c.index++;
        }
    }

    /** An object or array being read: its path, its schema, and the fields seen so far. */
    private static final class Container {
        final boolean array;
        final String path;
        final JsonNode schema;
        final Set<String> names = new HashSet<>();
        final Set<String> unknown = new HashSet<>();
        int index;

        Container(boolean array, String path, JsonNode schema) {
            this.array = array;
            this.path = path;
            this.schema = schema;
        }

        String childPath(String name) {
            if (array) {
                return path + "[" + index + "]";
            }
            return path.isEmpty() ? name : path + "." + name;
        }

        JsonNode childSchema(UnknownFields unknownFields, String name) {
            if (unknownFields == null || schema == UnknownFields.ANY) {
                return UnknownFields.ANY;
            }
            return array ? unknownFields.items(schema) : unknownFields.field(schema, name).schema();
        }

        /** An unknown field's value is not looked into. */
        boolean skipping(String name) {
            return !array && unknown.contains(name);
        }
    }

    /** Decodes JSON keeping the last of duplicate fields, as Go's decoder does. */
    private static JsonNode lastWins(byte[] body) throws IOException {
        try (JsonParser p = Codecs.json().getFactory().createParser(body)) {
            p.disable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
            JsonNode node = Codecs.json().readTree(p);
            return node == null ? Codecs.decode(body, false) : node;
        } catch (com.fasterxml.jackson.core.JacksonException e) {
            // Same bytes, same syntax error: the codec words it as a 400.
            return Codecs.decode(body, false);
        }
    }

    private static ResourceSchema jsonPatchSchema() {
        ObjectNode schemas = JsonNodeFactory.instance.objectNode();
        ObjectNode ops = schemas.putObject("jsonpatch");
        ops.put("type", "array");
        ObjectNode props = ops.putObject("items").put("type", "object").putObject("properties");
        for (String f : List.of("op", "path", "value", "from")) {
            props.putObject(f);
        }
        return ResourceSchema.of(schemas, "jsonpatch");
    }

    private static String optionsKind(String verb) {
        return switch (verb) {
            case "create" -> "CreateOptions";
            case "patch" -> "PatchOptions";
            default -> "UpdateOptions";
        };
    }
}
