package io.kubelix.runtime.codec.protobuf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.DynamicMessage;
import io.kubelix.runtime.codec.Codecs;
import io.kubelix.support.time.GoDuration;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Encodes objects as {@code application/vnd.kubernetes.protobuf}, the inverse of
 * {@link ProtobufCodec}: the {@code k8s\0} magic, then a runtime.Unknown envelope with the
 * apiVersion, kind and the kind's message built from the JSON tree, with Kubernetes' special types
 * (Time, MicroTime, Duration, Quantity, IntOrString, RawExtension, FieldsV1), inline structs and
 * base64 bytes mapped back. Lists and watch events are assembled from their items' message bytes,
 * so the watch cache can keep each object's message and reuse it. A JSON field that the kind's
 * message does not have is not written.
 */
public final class ProtobufEncoder {
    public static final String STREAM_MEDIA_TYPE = ProtobufCodec.MEDIA_TYPE + ";stream=watch";
    private static final byte[] MAGIC = {'k', '8', 's', 0};

    private ProtobufEncoder() {
    }

    /** Whether objects of a built-in {@code kind} served at {@code apiVersion} have a protobuf form (never a custom resource's). */
    public static boolean hasMessage(String apiVersion, String kind) {
        return ProtobufTypes.findBuiltIn(apiVersion, kind) != null;
    }

    /**
     * The bare message of an object (no envelope), typed by its own apiVersion and kind.
     *
     * @throws IllegalArgumentException when its kind has no protobuf form
     */
    public static byte[] message(ObjectNode obj) {
        String apiVersion = obj.path("apiVersion").asText("");
        String kind = obj.path("kind").asText("");
        Descriptor d = ProtobufTypes.find(apiVersion, kind);
        if (d == null) {
            throw new IllegalArgumentException("no protobuf form of " + apiVersion + ", Kind=" + kind);
        }
        return build(d, obj).toByteArray();
    }

    /** The whole body of one object: magic, envelope and message. */
    public static byte[] encode(ObjectNode obj) {
        return envelope(obj.path("apiVersion").asText(""), obj.path("kind").asText(""), message(obj));
    }

    /** {@code k8s\0} and the runtime.Unknown holding {@code message}, as client-go's protobuf serializer writes it. */
    public static byte[] envelope(String apiVersion, String kind, byte[] message) {
        try {
            ByteArrayOutputStream typeMeta = new ByteArrayOutputStream();
            CodedOutputStream tm = CodedOutputStream.newInstance(typeMeta);
            tm.writeString(1, apiVersion);
            tm.writeString(2, kind);
            tm.flush();
            ByteArrayOutputStream out = new ByteArrayOutputStream(message.length + 64);
            out.writeBytes(MAGIC);
            CodedOutputStream u = CodedOutputStream.newInstance(out);
            u.writeByteArray(1, typeMeta.toByteArray());
            u.writeByteArray(2, message);
            // Go writes the empty contentEncoding and contentType too.
            u.writeString(3, "");
            u.writeString(4, "");
            u.flush();
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The body of a list: {@code <kind>List} with {@code listMeta} and the items' bare messages in
     * order, so items encoded once (by the watch cache) are copied, not encoded again.
     *
     * @throws IllegalArgumentException when the list kind has no protobuf form
     */
    public static byte[] list(String apiVersion, String listKind, ObjectNode listMeta, List<byte[]> items) {
        Descriptor d = ProtobufTypes.find(apiVersion, listKind);
        if (d == null) {
            throw new IllegalArgumentException("no protobuf form of " + apiVersion + ", Kind=" + listKind);
        }
        FieldDescriptor metadata = d.findFieldByName("metadata");
        FieldDescriptor itemsField = d.findFieldByName("items");
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            CodedOutputStream c = CodedOutputStream.newInstance(out);
            c.writeByteArray(metadata.getNumber(), build(metadata.getMessageType(), listMeta).toByteArray());
            for (byte[] item : items) {
                c.writeByteArray(itemsField.getNumber(), item);
            }
            c.flush();
            return envelope(apiVersion, listKind, out.toByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Appends one event of a protobuf watch stream: a meta/v1 WatchEvent whose object is a
     * RawExtension holding the enveloped object, preceded by its length as 4 big-endian bytes when
     * {@code framed} (HTTP streams; a WebSocket message is framed by the WebSocket).
     */
    public static void watchEvent(String type, byte[] enveloped, boolean framed, ByteArrayOutputStream out) {
        try {
            ByteArrayOutputStream raw = new ByteArrayOutputStream(enveloped.length + 8);
            CodedOutputStream r = CodedOutputStream.newInstance(raw);
            r.writeByteArray(1, enveloped);
            r.flush();
            ByteArrayOutputStream event = new ByteArrayOutputStream(enveloped.length + 24);
            CodedOutputStream e = CodedOutputStream.newInstance(event);
            e.writeString(1, type);
            e.writeByteArray(2, raw.toByteArray());
            e.flush();
            if (framed) {
                int n = event.size();
                out.write(n >>> 24);
                out.write(n >>> 16);
                out.write(n >>> 8);
                out.write(n);
            }
            event.writeTo(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static DynamicMessage build(Descriptor d, ObjectNode json) {
        DynamicMessage.Builder b = DynamicMessage.newBuilder(d);
        for (FieldDescriptor fd : d.getFields()) {
            if (ProtobufTypes.INLINE_FIELDS.contains(fd.getFullName())) {
                // The embedded struct's fields sit in this object; Go writes the struct even when empty.
                b.setField(fd, build(fd.getMessageType(), json));
                continue;
            }
            JsonNode v = json.get(ProtobufTypes.jsonName(fd));
            if (v == null || v.isNull()) {
                continue;
            }
            if (fd.isMapField()) {
                if (v.isObject()) {
                    putEntries(b, fd, v);
                }
            } else if (fd.isRepeated()) {
                if (v.isArray()) {
                    for (JsonNode item : v) {
                        Object o = item.isNull() ? null : single(fd, item);
                        if (o != null) {
                            b.addRepeatedField(fd, o);
                        }
                    }
                }
            } else {
                Object o = single(fd, v);
                if (o != null) {
                    b.setField(fd, o);
                }
            }
        }
        return b.build();
    }

    private static void putEntries(DynamicMessage.Builder b, FieldDescriptor fd, JsonNode map) {
        Descriptor entry = fd.getMessageType();
        FieldDescriptor kf = entry.findFieldByNumber(1);
        FieldDescriptor vf = entry.findFieldByNumber(2);
        for (Iterator<Map.Entry<String, JsonNode>> it = map.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            DynamicMessage.Builder en = DynamicMessage.newBuilder(entry).setField(kf, e.getKey());
            Object value = e.getValue().isNull() ? null : single(vf, e.getValue());
            if (value != null) {
                en.setField(vf, value);
            }
            b.addRepeatedField(fd, en.build());
        }
    }

    /** One value as the field holds it; null leaves it out (a value of the wrong JSON type). */
    private static Object single(FieldDescriptor fd, JsonNode v) {
        return switch (fd.getJavaType()) {
            case STRING -> v.isContainerNode() ? null : v.asText();
            case BOOLEAN -> v.isBoolean() ? v.booleanValue() : null;
            case INT -> v.isNumber() ? v.intValue() : null;
            case LONG -> v.isNumber() ? v.longValue() : null;
            case FLOAT -> v.isNumber() ? v.floatValue() : null;
            case DOUBLE -> v.isNumber() ? v.doubleValue() : null;
            case BYTE_STRING -> bytes(v);
            case ENUM -> null;
            case MESSAGE -> special(fd.getMessageType(), v);
        };
    }

    private static ByteString bytes(JsonNode v) {
        if (!v.isTextual()) {
            return null;
        }
        try {
            return ByteString.copyFrom(Base64.getDecoder().decode(v.asText()));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static DynamicMessage special(Descriptor d, JsonNode v) {
        DynamicMessage.Builder b = DynamicMessage.newBuilder(d);
        switch (d.getFullName()) {
            case "k8s.io.apimachinery.pkg.apis.meta.v1.Time", "k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime" -> {
                Instant t = instant(v);
                if (t == null) {
                    return null;
                }
                b.setField(d.findFieldByName("seconds"), t.getEpochSecond());
                b.setField(d.findFieldByName("nanos"), t.getNano());
            }
            case "k8s.io.apimachinery.pkg.apis.meta.v1.Duration" -> {
                try {
                    b.setField(d.findFieldByName("duration"), GoDuration.parse(v.asText()).toNanos());
                } catch (RuntimeException e) {
                    return null;
                }
            }
            case "k8s.io.apimachinery.pkg.api.resource.Quantity" -> {
                if (v.isContainerNode()) {
                    return null;
                }
                b.setField(d.findFieldByName("string"), v.asText());
            }
            case "k8s.io.apimachinery.pkg.util.intstr.IntOrString" -> {
                // Go writes all three fields of the struct.
                boolean isInt = v.isNumber();
                if (!isInt && !v.isTextual()) {
                    return null;
                }
                b.setField(d.findFieldByName("type"), isInt ? 0L : 1L);
                b.setField(d.findFieldByName("intVal"), isInt ? v.intValue() : 0);
                b.setField(d.findFieldByName("strVal"), isInt ? "" : v.asText());
            }
            case "k8s.io.apimachinery.pkg.runtime.RawExtension" ->
                    b.setField(d.findFieldByName("raw"), ByteString.copyFrom(Codecs.toJson(v)));
            case "k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1" ->
                    b.setField(d.findFieldByName("Raw"), ByteString.copyFrom(Codecs.toJson(v)));
            default -> {
                if (ProtobufTypes.isStringList(d)) {
                    if (!v.isArray()) {
                        return null;
                    }
                    FieldDescriptor items = d.getFields().get(0);
                    v.forEach(item -> b.addRepeatedField(items, item.asText()));
                    return b.build();
                }
                return v instanceof ObjectNode o ? build(d, o) : null;
            }
        }
        return b.build();
    }

    private static Instant instant(JsonNode v) {
        if (!v.isTextual()) {
            return null;
        }
        try {
            return OffsetDateTime.parse(v.asText()).toInstant();
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
