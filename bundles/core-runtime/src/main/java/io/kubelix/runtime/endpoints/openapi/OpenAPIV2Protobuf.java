package io.kubelix.runtime.endpoints.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.function.Function;

/**
 * The v2 document in its protobuf form, gnostic's {@code openapi.v2.Document}
 * ({@code application/com.github.proto-openapi.spec.v2.v1.0+protobuf}), which client-go's
 * {@code OpenAPISchema()} asks for (kubectl, to check a {@code kind: List} it applies). It is
 * encoded from the JSON document by field number, as kube-openapi parses its JSON into gnostic's
 * messages; values gnostic keeps as {@code Any} (defaults, enums, examples, vendor extensions)
 * carry their JSON text in {@code Any.yaml}, which YAML readers take as it is. Keys the v2 message
 * has no field for (the v3 {@code nullable}, {@code anyOf}...) are left out: gnostic has no place
 * for them either.
 */
public final class OpenAPIV2Protobuf {
    /** The sub-schemas of a non-body parameter, by {@code in}: their field in {@code NonBodyParameter}. */
    private static final Map<String, Integer> NON_BODY = Map.of("header", 1, "formData", 2, "query", 3, "path", 4);
    private static final String[] OPERATIONS = {"get", "put", "post", "delete", "options", "head", "patch"};

    private OpenAPIV2Protobuf() {
    }

    public static byte[] encode(JsonNode doc) {
        return document(doc).toByteArray();
    }

    private static ByteString document(JsonNode d) {
        Message m = new Message();
        m.string(1, d.get("swagger"));
        if (d.has("info")) {
            JsonNode info = d.get("info");
            m.message(2, new Message().string(1, info.get("title")).string(2, info.get("version"))
                    .string(3, info.get("description")).string(4, info.get("termsOfService")).extensions(7, info).bytes());
        }
        m.string(3, d.get("host")).string(4, d.get("basePath")).strings(5, d.get("schemes"))
                .strings(6, d.get("consumes")).strings(7, d.get("produces"));
        if (d.has("paths")) {
            Message paths = new Message().extensions(1, d.get("paths"));
            d.get("paths").fields().forEachRemaining(p -> {
                if (!p.getKey().startsWith("x-")) {
                    paths.message(2, named(p.getKey(), pathItem(p.getValue())));
                }
            });
            m.message(8, paths.bytes());
        }
        if (d.has("definitions")) {
            m.message(9, namedMap(d.get("definitions"), OpenAPIV2Protobuf::schema));
        }
        return m.extensions(16, d).bytes();
    }

    private static ByteString pathItem(JsonNode p) {
        Message m = new Message().string(1, p.get("$ref"));
        for (int i = 0; i < OPERATIONS.length; i++) {
            if (p.has(OPERATIONS[i])) {
                m.message(2 + i, operation(p.get(OPERATIONS[i])));
            }
        }
        return m.repeated(9, p.get("parameters"), OpenAPIV2Protobuf::parametersItem).extensions(10, p).bytes();
    }

    private static ByteString operation(JsonNode o) {
        Message m = new Message().strings(1, o.get("tags")).string(2, o.get("summary")).string(3, o.get("description"));
        if (o.has("externalDocs")) {
            m.message(4, externalDocs(o.get("externalDocs")));
        }
        m.string(5, o.get("operationId")).strings(6, o.get("produces")).strings(7, o.get("consumes"))
                .repeated(8, o.get("parameters"), OpenAPIV2Protobuf::parametersItem);
        if (o.has("responses")) {
            Message responses = new Message();
            o.get("responses").fields().forEachRemaining(r -> {
                if (!r.getKey().startsWith("x-")) {
                    responses.message(1, named(r.getKey(), responseValue(r.getValue())));
                }
            });
            m.message(9, responses.extensions(2, o.get("responses")).bytes());
        }
        return m.strings(10, o.get("schemes")).bool(11, o.get("deprecated")).extensions(13, o).bytes();
    }

    /** {@code ParametersItem}: a reference, a body parameter, or a header, form, query or path one. */
    private static ByteString parametersItem(JsonNode p) {
        if (p.has("$ref")) {
            return new Message().message(2, jsonReference(p)).bytes();
        }
        String in = p.path("in").asText();
        ByteString parameter;
        if (in.equals("body")) {
            Message body = new Message().string(1, p.get("description")).string(2, p.get("name"))
                    .string(3, p.get("in")).bool(4, p.get("required"));
            if (p.has("schema")) {
                body.message(5, schema(p.get("schema")));
            }
            parameter = new Message().message(1, body.extensions(6, p).bytes()).bytes();
        } else {
            // Header and path sub-schemas start their primitive fields at 5, query and form ones at
            // 6, after allowEmptyValue; the four fields before are the same in all of them.
            boolean allowsEmpty = in.equals("query") || in.equals("formData");
            Message sub = new Message().bool(1, p.get("required")).string(2, p.get("in"))
                    .string(3, p.get("description")).string(4, p.get("name"));
            if (allowsEmpty) {
                sub.bool(5, p.get("allowEmptyValue"));
            }
            primitives(sub, allowsEmpty ? 6 : 5, p);
            ByteString nonBody = new Message().message(NON_BODY.getOrDefault(in, 3), sub.bytes()).bytes();
            parameter = new Message().message(2, nonBody).bytes();
        }
        return new Message().message(1, parameter).bytes();
    }

    /**
     * The fields that {@code PrimitivesItems} and the non-body parameter sub-schemas share, in the
     * same order in each, numbered from {@code base}.
     */
    private static Message primitives(Message m, int base, JsonNode p) {
        m.string(base, p.get("type")).string(base + 1, p.get("format"));
        if (p.has("items")) {
            m.message(base + 2, primitives(new Message(), 1, p.get("items")).bytes());
        }
        return m.string(base + 3, p.get("collectionFormat")).any(base + 4, p.get("default"))
                .number(base + 5, p.get("maximum")).bool(base + 6, p.get("exclusiveMaximum"))
                .number(base + 7, p.get("minimum")).bool(base + 8, p.get("exclusiveMinimum"))
                .integer(base + 9, p.get("maxLength")).integer(base + 10, p.get("minLength"))
                .string(base + 11, p.get("pattern")).integer(base + 12, p.get("maxItems"))
                .integer(base + 13, p.get("minItems")).bool(base + 14, p.get("uniqueItems"))
                .anys(base + 15, p.get("enum")).number(base + 16, p.get("multipleOf")).extensions(base + 17, p);
    }

    private static ByteString responseValue(JsonNode r) {
        if (r.has("$ref")) {
            return new Message().message(2, jsonReference(r)).bytes();
        }
        Message response = new Message().string(1, r.get("description"));
        if (r.has("schema")) {
            response.message(2, new Message().message(1, schema(r.get("schema"))).bytes());
        }
        return new Message().message(1, response.extensions(5, r).bytes()).bytes();
    }

    private static ByteString schema(JsonNode s) {
        Message m = new Message().string(1, s.get("$ref")).string(2, s.get("format")).string(3, s.get("title"))
                .string(4, s.get("description")).any(5, s.get("default")).number(6, s.get("multipleOf"))
                .number(7, s.get("maximum")).bool(8, s.get("exclusiveMaximum")).number(9, s.get("minimum"))
                .bool(10, s.get("exclusiveMinimum")).integer(11, s.get("maxLength")).integer(12, s.get("minLength"))
                .string(13, s.get("pattern")).integer(14, s.get("maxItems")).integer(15, s.get("minItems"))
                .bool(16, s.get("uniqueItems")).integer(17, s.get("maxProperties")).integer(18, s.get("minProperties"))
                .strings(19, s.get("required")).anys(20, s.get("enum"));
        JsonNode additional = s.get("additionalProperties");
        if (additional != null && additional.isBoolean()) {
            // a oneof member: false is written too, since it is set
            m.message(21, new Message().boolAlways(2, additional.booleanValue()).bytes());
        } else if (additional != null && additional.isObject()) {
            m.message(21, new Message().message(1, schema(additional)).bytes());
        }
        JsonNode type = s.get("type");
        if (type != null) {
            m.message(22, new Message().strings(1, type.isArray() ? type : null).string(1, type).bytes());
        }
        JsonNode items = s.get("items");
        if (items != null) {
            Message itemsItem = new Message();
            if (items.isArray()) {
                itemsItem.repeated(1, items, OpenAPIV2Protobuf::schema);
            } else {
                itemsItem.message(1, schema(items));
            }
            m.message(23, itemsItem.bytes());
        }
        m.repeated(24, s.get("allOf"), OpenAPIV2Protobuf::schema);
        if (s.has("properties")) {
            m.message(25, namedMap(s.get("properties"), OpenAPIV2Protobuf::schema));
        }
        m.string(26, s.get("discriminator")).bool(27, s.get("readOnly"));
        if (s.has("externalDocs")) {
            m.message(29, externalDocs(s.get("externalDocs")));
        }
        return m.any(30, s.get("example")).extensions(31, s).bytes();
    }

    private static ByteString externalDocs(JsonNode e) {
        return new Message().string(1, e.get("description")).string(2, e.get("url")).extensions(3, e).bytes();
    }

    private static ByteString jsonReference(JsonNode r) {
        return new Message().string(1, r.get("$ref")).string(2, r.get("description")).bytes();
    }

    /** A map as gnostic's repeated {@code Named*} pairs in field 1 ({@code Definitions}, {@code Properties}). */
    private static ByteString namedMap(JsonNode map, Function<JsonNode, ByteString> value) {
        Message m = new Message();
        map.fields().forEachRemaining(e -> m.message(1, named(e.getKey(), value.apply(e.getValue()))));
        return m.bytes();
    }

    private static ByteString named(String name, ByteString value) {
        return new Message().string(1, name).message(2, value).bytes();
    }

    /** One message being written: the fields of a JSON value that are present, by number. */
    private static final class Message {
        private final ByteString.Output bytes = ByteString.newOutput();
        private final CodedOutputStream out = CodedOutputStream.newInstance(bytes);

        Message string(int field, JsonNode v) {
            if (v != null && v.isTextual() && !v.textValue().isEmpty()) {
                write(() -> out.writeString(field, v.textValue()));
            }
            return this;
        }

        Message string(int field, String v) {
            write(() -> out.writeString(field, v));
            return this;
        }

        Message strings(int field, JsonNode array) {
            if (array != null && array.isArray()) {
                array.forEach(v -> write(() -> out.writeString(field, v.asText())));
            }
            return this;
        }

        /** A proto3 bool: only true is written, as false is its default. */
        Message bool(int field, JsonNode v) {
            if (v != null && v.isBoolean() && v.booleanValue()) {
                write(() -> out.writeBool(field, true));
            }
            return this;
        }

        Message boolAlways(int field, boolean v) {
            write(() -> out.writeBool(field, v));
            return this;
        }

        Message number(int field, JsonNode v) {
            if (v != null && v.isNumber()) {
                write(() -> out.writeDouble(field, v.doubleValue()));
            }
            return this;
        }

        Message integer(int field, JsonNode v) {
            if (v != null && v.isNumber()) {
                write(() -> out.writeInt64(field, v.longValue()));
            }
            return this;
        }

        /** gnostic's {@code Any}: the value's text in {@code yaml} (field 2); JSON is YAML. */
        Message any(int field, JsonNode v) {
            if (v != null && !v.isMissingNode()) {
                message(field, new Message().string(2, v.toString()).bytes());
            }
            return this;
        }

        Message anys(int field, JsonNode array) {
            if (array != null && array.isArray()) {
                array.forEach(v -> any(field, v));
            }
            return this;
        }

        Message message(int field, ByteString message) {
            write(() -> out.writeBytes(field, message));
            return this;
        }

        Message repeated(int field, JsonNode array, Function<JsonNode, ByteString> element) {
            if (array != null && array.isArray()) {
                array.forEach(v -> message(field, element.apply(v)));
            }
            return this;
        }

        /** The object's {@code x-} keys as {@code NamedAny} pairs. */
        Message extensions(int field, JsonNode object) {
            if (object != null && object.isObject()) {
                object.fields().forEachRemaining(e -> {
                    if (e.getKey().startsWith("x-")) {
                        message(field, named(e.getKey(), new Message().string(2, e.getValue().toString()).bytes()));
                    }
                });
            }
            return this;
        }

        ByteString bytes() {
            write(out::flush);
            return bytes.toByteString();
        }

        private void write(Write w) {
            try {
                w.run();
            } catch (IOException e) {
                throw new UncheckedIOException(e); // an in-memory stream does not fail
            }
        }
    }

    @FunctionalInterface
    private interface Write {
        void run() throws IOException;
    }
}
