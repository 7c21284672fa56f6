package io.kubelix.tools.openapigen;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.gson.annotations.SerializedName;
import io.swagger.annotations.ApiModel;
import io.swagger.annotations.ApiModelProperty;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Builds kube-apiserver's OpenAPI v3 definitions ({@code components.schemas}) of Kubernetes types
 * from two artifacts of the official Java client at the same API level:
 * <ul>
 *   <li>the protobuf messages of {@code client-java-proto} (see {@link ProtoSources}): fields, their
 *       types, and the Go markers that become the {@code x-kubernetes-*} extensions:
 *       {@code +patchMergeKey}, {@code +patchStrategy}, {@code +listType}, {@code +listMapKey},
 *       {@code +mapType} on fields, {@code +structType} and {@code +mapType} on types;</li>
 *   <li>the model classes of {@code client-java-api} ({@code V1ConfigMap}...), generated from
 *       kube's published spec: descriptions ({@code @ApiModel}, {@code @ApiModelProperty}), required
 *       fields ({@code openapiRequiredFields}), and the fields protobuf does not carry (the
 *       {@code apiVersion} and {@code kind} of TypeMeta).</li>
 * </ul>
 * Types that serialize as strings or free-form objects (Time, MicroTime, Quantity, IntOrString,
 * FieldsV1, RawExtension, Duration) get kube's scalar definitions.
 */
final class SchemaGenerator {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    static final String REF_PREFIX = "#/components/schemas/";
    private static final String MODELS = "io.kubernetes.client.openapi.models.";
    /** Kube's definitions of the types with a custom JSON form: {type, format}. */
    private static final Map<String, String[]> SCALAR_TYPES = Map.of(
            "io.k8s.apimachinery.pkg.apis.meta.v1.Time", new String[]{"string", "date-time"},
            "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime", new String[]{"string", "date-time"},
            "io.k8s.apimachinery.pkg.apis.meta.v1.Duration", new String[]{"string", null},
            "io.k8s.apimachinery.pkg.api.resource.Quantity", new String[]{"string", null},
            "io.k8s.apimachinery.pkg.util.intstr.IntOrString", new String[]{"string", "int-or-string"},
            "io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1", new String[]{"object", null},
            "io.k8s.apimachinery.pkg.runtime.RawExtension", new String[]{"object", null});

    /** Java types of model fields → protobuf scalar types. */
    private static final Map<String, String> JAVA_SCALARS = Map.of("java.lang.String", "string",
            "java.lang.Boolean", "bool", "java.lang.Integer", "int32", "java.lang.Long", "int64",
            "java.lang.Double", "double", "java.lang.Float", "float", "byte[]", "bytes");
    /** Java types of model fields → the definitions of the types with a custom JSON form. */
    private static final Map<String, String> JAVA_SPECIAL = Map.of(
            "java.time.OffsetDateTime", "io.k8s.apimachinery.pkg.apis.meta.v1.Time",
            "io.kubernetes.client.custom.IntOrString", "io.k8s.apimachinery.pkg.util.intstr.IntOrString",
            "io.kubernetes.client.custom.Quantity", "io.k8s.apimachinery.pkg.api.resource.Quantity");

    /** The group and version a model class name starts with: {@code V1}, {@code DiscoveryV1}, {@code V1beta1}. */
    private static final java.util.regex.Pattern MODEL_VERSION_PREFIX =
            java.util.regex.Pattern.compile("^(?:[A-Z][a-z]+)?V[0-9]+(?:(?:alpha|beta)[0-9]+)?(?=[A-Z])");

    private final ProtoSources proto;
    private final ClassLoader models;

    SchemaGenerator(ProtoSources proto, ClassLoader models) {
        this.proto = proto;
        this.models = models;
    }

    /** The definitions of {@code roots} and of everything they refer to, by name, sorted. */
    ObjectNode definitions(Collection<String> roots) {
        Map<String, ObjectNode> out = new TreeMap<>();
        Deque<String> todo = new ArrayDeque<>(roots);
        while (!todo.isEmpty()) {
            String name = todo.poll();
            if (out.containsKey(name)) {
                continue;
            }
            ObjectNode def = definition(name);
            out.put(name, def);
            collectRefs(def, todo);
        }
        ObjectNode schemas = F.objectNode();
        out.forEach(schemas::set);
        return schemas;
    }

    /** The definition of one type, by kube's definition name ({@code io.k8s.api.core.v1.ConfigMap}). */
    ObjectNode definition(String name) {
        ProtoSources.Message msg = proto.message(protoName(name));
        if (msg == null) {
            return modelOnlyDefinition(name);
        }
        ObjectNode def = F.objectNode();
        Class<?> model = modelClass(msg);
        String description = model != null && model.getAnnotation(ApiModel.class) != null
                ? model.getAnnotation(ApiModel.class).description() : description(msg.comment());
        if (!description.isEmpty()) {
            def.put("description", description);
        }
        String[] scalar = SCALAR_TYPES.get(name);
        if (scalar != null) {
            def.put("type", scalar[0]);
            if (scalar[1] != null) {
                def.put("format", scalar[1]);
            }
            return sorted(def);
        }
        Map<String, ObjectNode> props = new TreeMap<>();
        Map<String, Field> javaFields = model == null ? Map.of() : javaFields(model);
        Map<String, ProtoSources.Field> fields = model == null ? msg.fields() : jsonFields(msg, javaFields);
        fields.forEach((json, f) -> props.put(json, property(f, javaFields.get(json))));
        javaFields.forEach((json, jf) -> {
            // A model-only field whose type has no protobuf message is newer than the protobuf's API level
            // (NodeStatus.features): kube-apiserver at that level does not serve it.
            if (!props.containsKey(json) && mapped(jf)) {
                props.put(json, javaProperty(jf, null));
            }
        });
        List<String> required = required(model, msg);
        if (!props.isEmpty()) {
            ObjectNode p = def.putObject("properties");
            props.forEach(p::set);
        }
        if (!required.isEmpty()) {
            ArrayNode r = def.putArray("required");
            required.forEach(r::add);
        }
        def.put("type", "object");
        Map<String, List<String>> markers = markers(msg.comment());
        String mapType = first(markers.get("structType"), first(markers.get("mapType"), null));
        if (mapType != null) {
            def.put("x-kubernetes-map-type", mapType);
        }
        return sorted(def);
    }

    /** Whether a model-only field has a type with a protobuf counterpart (or a scalar one) to describe it by. */
    private boolean mapped(Field f) {
        try {
            javaProperty(f, null);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * The definition of a type the protobuf sources lack (groups and versions newer than them, such as
     * coordination.k8s.io/v1, discovery.k8s.io/v1, autoscaling/v2 and events.k8s.io/v1), from its Java model alone: fields, types,
     * descriptions and required fields, without the {@code x-kubernetes-*} markers. Model types it
     * refers to that have no protobuf message either are named in the same API package.
     */
    private ObjectNode modelOnlyDefinition(String name) {
        Class<?> model = modelClass(name);
        if (model == null) {
            throw new IllegalArgumentException("no protobuf message and no model class for " + name);
        }
        String pkg = name.substring(0, name.lastIndexOf('.') + 1);
        ObjectNode def = F.objectNode();
        if (model.getAnnotation(ApiModel.class) != null && !model.getAnnotation(ApiModel.class).description().isEmpty()) {
            def.put("description", model.getAnnotation(ApiModel.class).description());
        }
        Map<String, ObjectNode> props = new TreeMap<>();
        javaFields(model).forEach((json, jf) -> props.put(json, javaProperty(jf, pkg)));
        if (!props.isEmpty()) {
            ObjectNode p = def.putObject("properties");
            props.forEach(p::set);
        }
        List<String> required = required(model, new ProtoSources.Message(protoName(name), List.of(), Map.of()));
        if (!required.isEmpty()) {
            ArrayNode r = def.putArray("required");
            required.forEach(r::add);
        }
        def.put("type", "object");
        return sorted(def);
    }

    /** The model class of a definition name, by the names {@link #modelClass(ProtoSources.Message)} tries. */
    private Class<?> modelClass(String name) {
        String[] parts = name.split("\\.");
        String kind = parts[parts.length - 1];
        String version = capitalize(parts[parts.length - 2]);
        String group = capitalize(parts[parts.length - 3]);
        for (String candidate : List.of(group + version + kind, version + kind)) {
            try {
                return Class.forName(MODELS + candidate, true, models);
            } catch (ClassNotFoundException e) {
                // try the next form
            }
        }
        return null;
    }

    private ObjectNode property(ProtoSources.Field f, Field java) {
        ObjectNode s;
        if (f.mapKey() != null) {
            s = F.objectNode();
            s.set("additionalProperties", element(f.type()));
            s.put("type", "object");
        } else if (f.repeated()) {
            s = F.objectNode();
            s.set("items", element(f.type()));
            s.put("type", "array");
        } else {
            s = typeSchema(f.type());
        }
        ApiModelProperty doc = doc(java);
        String description = doc != null && !doc.value().isEmpty() ? doc.value() : description(f.comment());
        if (!description.isEmpty()) {
            s.put("description", description);
        }
        if (s.has("$ref") && s.has("description")) {
            // OpenAPI v3 ignores a $ref's siblings: kube wraps the reference in allOf.
            ObjectNode wrapped = F.objectNode();
            wrapped.putArray("allOf").addObject().set("$ref", s.remove("$ref"));
            wrapped.setAll(s);
            s = wrapped;
        }
        Map<String, List<String>> markers = markers(f.comment());
        putMarker(s, "x-kubernetes-list-map-keys", markers.get("listMapKey"), true);
        putMarker(s, "x-kubernetes-list-type", markers.get("listType"), false);
        putMarker(s, "x-kubernetes-map-type", markers.get("mapType"), false);
        putMarker(s, "x-kubernetes-patch-merge-key", markers.get("patchMergeKey"), false);
        putMarker(s, "x-kubernetes-patch-strategy", markers.get("patchStrategy"), false);
        return sorted(s);
    }

    private static void putMarker(ObjectNode s, String extension, List<String> values, boolean list) {
        if (values == null || values.isEmpty()) {
            return;
        }
        if (list) {
            ArrayNode a = s.putArray(extension);
            values.forEach(a::add);
        } else {
            s.put(extension, values.get(values.size() - 1));
        }
    }

    /**
     * The schema of a list's items or a map's values. Go keeps those by value, so kube's documents
     * give each the zero value as its default: {@code ""}, {@code 0}, {@code false}, {@code {}}
     * (with the reference wrapped in allOf, as a reference takes no siblings).
     */
    private static ObjectNode element(String type) {
        ObjectNode s = typeSchema(type);
        if (s.has("$ref")) {
            ObjectNode wrapped = F.objectNode();
            wrapped.putArray("allOf").addObject().set("$ref", s.get("$ref"));
            wrapped.putObject("default");
            return wrapped;
        }
        switch (s.path("type").asText()) {
            case "string" -> s.put("default", "");
            case "integer", "number" -> s.put("default", 0);
            case "boolean" -> s.put("default", false);
            default -> { }
        }
        return sorted(s);
    }

    /** The schema of a protobuf type: a scalar, or a reference to a message's definition. */
    private static ObjectNode typeSchema(String type) {
        ObjectNode s = F.objectNode();
        switch (type) {
            case "string" -> s.put("type", "string");
            case "bool" -> s.put("type", "boolean");
            case "int32", "sint32", "uint32", "fixed32" -> s.put("format", "int32").put("type", "integer");
            case "int64", "sint64", "uint64", "fixed64" -> s.put("format", "int64").put("type", "integer");
            case "double" -> s.put("format", "double").put("type", "number");
            case "float" -> s.put("format", "float").put("type", "number");
            case "bytes" -> s.put("format", "byte").put("type", "string");
            default -> {
                if (!type.startsWith(".k8s.io.")) {
                    throw new IllegalArgumentException("unknown protobuf type " + type);
                }
                s.put("$ref", REF_PREFIX + definitionName(type.substring(1)));
            }
        }
        return s;
    }

    /**
     * A field the protobuf message lacks (TypeMeta's apiVersion and kind, and fields newer than
     * the protobuf sources), from the Java model: its type, and no markers. A model type without a
     * protobuf message is named in {@code pkg}, the API package of the definition being built.
     */
    private ObjectNode javaProperty(Field f, String pkg) {
        ObjectNode s = javaType(f.getGenericType(), f, pkg);
        ApiModelProperty doc = doc(f);
        if (doc != null && !doc.value().isEmpty()) {
            s.put("description", doc.value());
            if (s.has("$ref")) {
                ObjectNode wrapped = F.objectNode();
                wrapped.putArray("allOf").addObject().set("$ref", s.remove("$ref"));
                wrapped.setAll(s);
                s = wrapped;
            }
        }
        return sorted(s);
    }

    private ObjectNode javaType(Type type, Field f, String pkg) {
        ObjectNode s = F.objectNode();
        if (type instanceof ParameterizedType pt && pt.getRawType() == List.class) {
            s.set("items", javaElement(pt.getActualTypeArguments()[0], f, pkg));
            return s.put("type", "array");
        }
        if (type instanceof ParameterizedType pt && pt.getRawType() == Map.class) {
            s.set("additionalProperties", javaElement(pt.getActualTypeArguments()[1], f, pkg));
            return s.put("type", "object");
        }
        String scalar = JAVA_SCALARS.get(type.getTypeName());
        if (scalar != null) {
            return typeSchema(scalar);
        }
        String special = JAVA_SPECIAL.get(type.getTypeName());
        if (special != null) {
            return s.put("$ref", REF_PREFIX + special);
        }
        if (type == Object.class) {
            // Any JSON (a JSONSchemaProps' default, a CRD's status subresource): kube publishes it this way.
            return s.put("x-kubernetes-preserve-unknown-fields", true);
        }
        if (type instanceof Class<?> c && c.getName().startsWith(MODELS)) {
            String proto = protoNameOfModel(c);
            if (proto != null) {
                return s.put("$ref", REF_PREFIX + definitionName(proto));
            }
            if (pkg != null) {
                return s.put("$ref", REF_PREFIX + pkg + MODEL_VERSION_PREFIX.matcher(c.getSimpleName()).replaceFirst(""));
            }
        }
        throw new IllegalArgumentException("field " + f + " has no protobuf counterpart and an unmapped type");
    }

    private ObjectNode javaElement(Type type, Field f, String pkg) {
        ObjectNode s = javaType(type, f, pkg);
        if (s.has("$ref")) {
            ObjectNode wrapped = F.objectNode();
            wrapped.putArray("allOf").addObject().set("$ref", s.get("$ref"));
            wrapped.putObject("default");
            return wrapped;
        }
        return s;
    }

    /** The protobuf message a model class stands for, found by the names {@link #modelClass} tries. */
    private String protoNameOfModel(Class<?> model) {
        for (ProtoSources.Message m : proto.messages().values()) {
            if (model.equals(modelClass(m))) {
                return m.name();
            }
        }
        return null;
    }

    /** A model field's description: the generator puts it on the getter. */
    private static ApiModelProperty doc(Field f) {
        if (f == null) {
            return null;
        }
        if (f.getAnnotation(ApiModelProperty.class) != null) {
            return f.getAnnotation(ApiModelProperty.class);
        }
        for (String prefix : List.of("get", "is")) {
            try {
                ApiModelProperty doc = f.getDeclaringClass().getMethod(prefix + capitalize(f.getName()))
                        .getAnnotation(ApiModelProperty.class);
                if (doc != null) {
                    return doc;
                }
            } catch (NoSuchMethodException e) {
                // try the next form
            }
        }
        return null;
    }

    /** Kube's required fields of a type, in field order: the model's {@code openapiRequiredFields}. */
    private static List<String> required(Class<?> model, ProtoSources.Message msg) {
        if (model == null) {
            return List.of();
        }
        Set<?> req;
        try {
            Field f = model.getDeclaredField("openapiRequiredFields");
            req = (Set<?>) f.get(null);
        } catch (ReflectiveOperationException e) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        msg.fields().keySet().stream().filter(req::contains).forEach(out::add);
        req.stream().map(Object::toString).filter(n -> !out.contains(n)).sorted().forEach(out::add);
        return out;
    }

    /**
     * The client's model class of a message: {@code V1ConfigMap}, or {@code CoreV1Event} where the
     * client prefixes the group to tell same-named kinds apart; null when none has every field.
     */
    private Class<?> modelClass(ProtoSources.Message msg) {
        String[] parts = msg.name().split("\\.");
        String kind = parts[parts.length - 1];
        String version = capitalize(parts[parts.length - 2]);
        String group = capitalize(parts[parts.length - 3]);
        for (String candidate : List.of(group + version + kind, version + kind)) {
            try {
                Class<?> c = Class.forName(MODELS + candidate, true, models);
                Map<String, Field> java = javaFields(c);
                if (java.keySet().containsAll(msg.fields().keySet())) {
                    return c;
                }
                // Renamed or inline fields: only when what the model has beyond them is plain (TypeMeta's
                // strings) or of types newer than the protobuf sources (a Volume's image source); a struct
                // protobuf knows there means the model is another type.
                Map<String, ProtoSources.Field> resolved = jsonFields(msg, java);
                if (resolved != null && java.entrySet().stream().filter(e -> !resolved.containsKey(e.getKey()))
                        .allMatch(e -> JAVA_SCALARS.containsKey(e.getValue().getGenericType().getTypeName())
                                || newerThanProtobuf(e.getValue()))) {
                    return c;
                }
            } catch (ClassNotFoundException e) {
                // try the next form
            }
        }
        return null;
    }

    /**
     * Whether a model field's type (or element type) is a model class that no protobuf message is
     * named like: a type newer than the protobuf sources. By name only, since matching models to
     * messages by their fields comes back here.
     */
    private boolean newerThanProtobuf(Field f) {
        Type type = f.getGenericType();
        if (type instanceof ParameterizedType pt) {
            Type[] args = pt.getActualTypeArguments();
            type = args[args.length - 1];
        }
        if (!(type instanceof Class<?> c) || !c.getName().startsWith(MODELS)) {
            return false;
        }
        String suffix = "." + MODEL_VERSION_PREFIX.matcher(c.getSimpleName()).replaceFirst("");
        return proto.messages().keySet().stream().noneMatch(n -> n.endsWith(suffix));
    }

    /**
     * A message's fields by their JSON names in the model {@code java}, or null when the model
     * lacks one. Kube's protobuf names a few fields otherwise than their JSON (the {@code Webhooks}
     * of webhook configurations, the {@code Expression} of a policy's validation), and carries a
     * Go struct embedded with {@code json:",inline"} as one field (a Volume's VolumeSource, a
     * PersistentVolumeSpec's PersistentVolumeSource, an IngressRule's IngressRuleValue): its fields
     * then stand in the message itself. The Java client drops some deprecated fields of such
     * structs; kube still serves them, so they stay, under their protobuf names.
     */
    private Map<String, ProtoSources.Field> jsonFields(ProtoSources.Message msg, Map<String, Field> java) {
        Map<String, ProtoSources.Field> out = new LinkedHashMap<>();
        for (ProtoSources.Field f : msg.fields().values()) {
            if (java.containsKey(f.name())) {
                out.putIfAbsent(f.name(), f);
                continue;
            }
            String renamed = java.keySet().stream().filter(n -> n.equalsIgnoreCase(f.name())).findFirst().orElse(null);
            if (renamed != null) {
                out.putIfAbsent(renamed, f);
                continue;
            }
            ProtoSources.Message embedded = embedded(f, java);
            if (embedded == null) {
                return null;
            }
            inline(embedded, java, out);
        }
        return out;
    }

    /** The message of {@code f} when it is a struct some of whose fields the model has as its own. */
    private ProtoSources.Message embedded(ProtoSources.Field f, Map<String, Field> java) {
        ProtoSources.Message m = !f.repeated() && f.mapKey() == null && f.type().startsWith(".k8s.io.")
                ? proto.message(f.type().substring(1)) : null;
        return m != null && m.fields().keySet().stream().anyMatch(java::containsKey) ? m : null;
    }

    /** Adds the fields of an inlined struct to {@code out}, by their model names when the model has them. */
    private void inline(ProtoSources.Message embedded, Map<String, Field> java, Map<String, ProtoSources.Field> out) {
        for (ProtoSources.Field e : embedded.fields().values()) {
            ProtoSources.Message nested = java.containsKey(e.name()) ? null : embedded(e, java);
            if (nested != null) {
                inline(nested, java, out);
            } else {
                String json = java.keySet().stream().filter(n -> n.equalsIgnoreCase(e.name())).findFirst().orElse(e.name());
                out.putIfAbsent(json, e);
            }
        }
    }

    private static Map<String, Field> javaFields(Class<?> c) {
        Map<String, Field> out = new LinkedHashMap<>();
        for (Field f : c.getDeclaredFields()) {
            SerializedName sn = f.getAnnotation(SerializedName.class);
            if (sn != null && !Modifier.isStatic(f.getModifiers())) {
                out.put(sn.value(), f);
            }
        }
        return out;
    }

    /**
     * The {@code +name=value} markers of a doc comment, by name, values in order (a marker may
     * repeat, as {@code +listMapKey} does).
     */
    static Map<String, List<String>> markers(List<String> comment) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (String line : comment) {
            String t = line.trim();
            int eq = t.indexOf('=');
            if (t.startsWith("+") && eq > 1) {
                out.computeIfAbsent(t.substring(1, eq), k -> new ArrayList<>()).add(t.substring(eq + 1).trim());
            }
        }
        return out;
    }

    /**
     * A Go doc comment as kube's OpenAPI description: markers dropped, the text after a
     * {@code ---} line dropped, lines of a paragraph joined by spaces, paragraphs by a blank line.
     */
    static String description(List<String> comment) {
        List<String> paragraphs = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : comment) {
            String t = line.trim();
            if (t.equals("---")) {
                break;
            }
            if (t.startsWith("+")) {
                continue;
            }
            if (t.isEmpty()) {
                if (current.length() > 0) {
                    paragraphs.add(current.toString());
                    current.setLength(0);
                }
                continue;
            }
            if (current.length() > 0) {
                current.append(' ');
            }
            current.append(t);
        }
        if (current.length() > 0) {
            paragraphs.add(current.toString());
        }
        return String.join("\n\n", paragraphs);
    }

    /** {@code io.k8s.api.core.v1.ConfigMap} → {@code k8s.io.api.core.v1.ConfigMap}. */
    static String protoName(String definitionName) {
        if (!definitionName.startsWith("io.k8s.")) {
            throw new IllegalArgumentException("not a Kubernetes definition name: " + definitionName);
        }
        return "k8s.io." + definitionName.substring("io.k8s.".length());
    }

    /** {@code k8s.io.api.core.v1.ConfigMap} → {@code io.k8s.api.core.v1.ConfigMap}. */
    static String definitionName(String protoName) {
        return "io.k8s." + protoName.substring("k8s.io.".length());
    }

    private static void collectRefs(JsonNode node, Deque<String> into) {
        JsonNode ref = node.get("$ref");
        if (ref != null && ref.isTextual()) {
            into.add(ref.asText().substring(REF_PREFIX.length()));
        }
        node.forEach(child -> {
            if (child.isContainerNode()) {
                collectRefs(child, into);
            }
        });
    }

    /** The object with its keys in name order, as kube's published documents have them. */
    private static ObjectNode sorted(ObjectNode o) {
        Map<String, JsonNode> byName = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            byName.put(e.getKey(), e.getValue());
        }
        ObjectNode out = F.objectNode();
        byName.forEach(out::set);
        return out;
    }

    private static String first(List<String> values, String otherwise) {
        return values == null || values.isEmpty() ? otherwise : values.get(0);
    }

    private static String capitalize(String s) {
        return s.isEmpty() ? s : s.substring(0, 1).toUpperCase(Locale.ROOT) + s.substring(1);
    }
}
