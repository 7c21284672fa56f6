package io.kubelix.runtime.codec.protobuf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import io.kubelix.api.errors.StatusException;
import io.kubelix.runtime.codec.Codecs;
import io.kubelix.support.time.GoDuration;

import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * Decodes {@code application/vnd.kubernetes.protobuf} bodies, which client-go's typed clients
 * (and so {@code kubectl create configmap} and friends) send for built-in kinds: the
 * {@code k8s\0} magic, then a runtime.Unknown envelope with the apiVersion, kind and the
 * message. The message becomes the same JSON tree kube-apiserver would produce, with
 * Kubernetes' special types mapped (Time, MicroTime, Duration, Quantity, IntOrString,
 * RawExtension, FieldsV1) and bytes as base64. Go writes every non-pointer field, so empty
 * strings are dropped as {@code omitempty} would.
 */
public final class ProtobufCodec {
    public static final String MEDIA_TYPE = "application/vnd.kubernetes.protobuf";
    private static final byte[] MAGIC = {'k', '8', 's', 0};
    private static final long GO_ZERO_TIME_SECONDS = -62135596800L;
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final DateTimeFormatter MICRO = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSX")
            .withZone(java.time.ZoneOffset.UTC);

    /** Messages whose number and bool fields are all Go value types with omitempty: zero means unset. */
    private static final java.util.Set<String> OMIT_ZERO_SCALARS = java.util.Set.of(
            "k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta", "k8s.io.apimachinery.pkg.apis.meta.v1.ListMeta",
            "k8s.io.api.networking.v1.ServiceBackendPort");

    /**
     * @throws StatusException 400 when the body is not a Kubernetes protobuf object, 415 when its
     *                         kind has no protobuf form here
     */
    public ObjectNode decode(byte[] body) {
        if (body.length < MAGIC.length || !Arrays.equals(Arrays.copyOf(body, MAGIC.length), MAGIC)) {
            throw StatusException.badRequest("the body of the request is not a Kubernetes protobuf object (no k8s "
                    + "prefix)");
        }
        try {
            Envelope e = envelope(CodedInputStream.newInstance(body, MAGIC.length, body.length - MAGIC.length));
            if (e.kind.isEmpty()) {
                throw StatusException.badRequest("the protobuf object has no kind");
            }
            Descriptor d = ProtobufTypes.find(e.apiVersion, e.kind);
            if (d == null) {
                throw StatusException.unsupportedMediaType(MEDIA_TYPE + " (no protobuf form of " + e.apiVersion + ", Kind="
                        + e.kind + "; send application/json)");
            }
            ObjectNode obj = F.objectNode();
            obj.put("apiVersion", e.apiVersion);
            obj.put("kind", e.kind);
            obj.setAll(message(DynamicMessage.parseFrom(d, e.raw)));
            return obj;
        } catch (InvalidProtocolBufferException ex) {
            throw StatusException.badRequest("the protobuf body could not be decoded: " + ex.getMessage());
        } catch (IOException ex) {
            throw StatusException.badRequest("the protobuf body could not be read: " + ex.getMessage());
        }
    }

    private record Envelope(String apiVersion, String kind, ByteString raw) {
    }

    /** runtime.Unknown: typeMeta (1: apiVersion, 2: kind), raw (2), contentEncoding (3), contentType (4). */
    private static Envelope envelope(CodedInputStream in) throws IOException {
        String apiVersion = "";
        String kind = "";
        ByteString raw = ByteString.EMPTY;
        for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
            switch (tag >>> 3) {
                case 1 -> {
                    CodedInputStream tm = in.readBytes().newCodedInput();
                    for (int t = tm.readTag(); t != 0; t = tm.readTag()) {
                        switch (t >>> 3) {
                            case 1 -> apiVersion = tm.readString();
                            case 2 -> kind = tm.readString();
                            default -> tm.skipField(t);
                        }
                    }
                }
                case 2 -> raw = in.readBytes();
                case 3 -> {
                    String encoding = in.readString();
                    if (!encoding.isEmpty()) {
                        throw StatusException.badRequest("unsupported protobuf content encoding \"" + encoding + "\"");
                    }
                }
                default -> in.skipField(tag);
            }
        }
        return new Envelope(apiVersion, kind, raw);
    }

    private ObjectNode message(Message m) {
        ObjectNode o = F.objectNode();
        boolean omitZero = OMIT_ZERO_SCALARS.contains(m.getDescriptorForType().getFullName());
        for (Map.Entry<FieldDescriptor, Object> e : m.getAllFields().entrySet()) {
            FieldDescriptor fd = e.getKey();
            JsonNode v = field(fd, e.getValue());
            if (omitZero && v != null && (v.isNumber() && v.asLong() == 0 || v.isBoolean() && !v.asBoolean())) {
                continue;
            }
            if (v instanceof ObjectNode inline && ProtobufTypes.INLINE_FIELDS.contains(fd.getFullName())) {
                o.setAll(inline);
            } else if (v != null) {
                o.set(ProtobufTypes.jsonName(fd), v);
            }
        }
        return o;
    }

    private JsonNode field(FieldDescriptor fd, Object value) {
        if (fd.isMapField()) {
            ObjectNode map = F.objectNode();
            for (Object entry : (List<?>) value) {
                Message en = (Message) entry;
                FieldDescriptor kf = en.getDescriptorForType().findFieldByNumber(1);
                FieldDescriptor vf = en.getDescriptorForType().findFieldByNumber(2);
                JsonNode v = single(vf, en.getField(vf));
                map.set(String.valueOf(en.getField(kf)), v == null ? F.textNode("") : v);
            }
            return map;
        }
        if (fd.isRepeated()) {
            ArrayNode arr = F.arrayNode();
            for (Object item : (List<?>) value) {
                JsonNode v = single(fd, item);
                arr.add(v == null ? F.textNode("") : v);
            }
            return arr;
        }
        return single(fd, value);
    }

    /** One value; null means "leave the field out". */
    private JsonNode single(FieldDescriptor fd, Object value) {
        return switch (fd.getJavaType()) {
            case STRING -> ((String) value).isEmpty() ? null : F.textNode((String) value);
            case BOOLEAN -> F.booleanNode((Boolean) value);
            case INT -> F.numberNode((Integer) value);
            case LONG -> F.numberNode((Long) value);
            case FLOAT -> F.numberNode((Float) value);
            case DOUBLE -> F.numberNode((Double) value);
            case BYTE_STRING -> F.textNode(Base64.getEncoder().encodeToString(((ByteString) value).toByteArray()));
            case ENUM -> F.textNode(value.toString());
            case MESSAGE -> special((Message) value);
        };
    }

    private JsonNode special(Message m) {
        Descriptor d = m.getDescriptorForType();
        switch (d.getFullName()) {
            case "k8s.io.apimachinery.pkg.apis.meta.v1.Time" -> {
                long seconds = (Long) fieldOr(m, "seconds", 0L);
                if (seconds == GO_ZERO_TIME_SECONDS || seconds == 0 && !m.hasField(d.findFieldByName("seconds"))) {
                    return null;
                }
                return F.textNode(Instant.ofEpochSecond(seconds).truncatedTo(ChronoUnit.SECONDS).toString());
            }
            case "k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime" -> {
                long seconds = (Long) fieldOr(m, "seconds", 0L);
                if (seconds == GO_ZERO_TIME_SECONDS) {
                    return null;
                }
                return F.textNode(MICRO.format(Instant.ofEpochSecond(seconds, (Integer) fieldOr(m, "nanos", 0))));
            }
            case "k8s.io.apimachinery.pkg.apis.meta.v1.Duration" -> {
                return F.textNode(GoDuration.format((Long) fieldOr(m, "duration", 0L)));
            }
            case "k8s.io.apimachinery.pkg.api.resource.Quantity" -> {
                return F.textNode((String) fieldOr(m, "string", ""));
            }
            case "k8s.io.apimachinery.pkg.util.intstr.IntOrString" -> {
                long type = (Long) fieldOr(m, "type", 0L);
                return type == 1 ? F.textNode((String) fieldOr(m, "strVal", ""))
                        : F.numberNode((Integer) fieldOr(m, "intVal", 0));
            }
            case "k8s.io.apimachinery.pkg.runtime.RawExtension", "k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1" -> {
                String field = d.getFullName().endsWith("FieldsV1") ? "Raw" : "raw";
                ByteString raw = (ByteString) fieldOr(m, field, ByteString.EMPTY);
                return raw.isEmpty() ? null : Codecs.decode(raw.toByteArray(), false);
            }
            default -> {
                if (ProtobufTypes.isStringList(d)) {
                    ArrayNode items = F.arrayNode();
                    ((List<?>) m.getField(d.getFields().get(0))).forEach(item -> items.add((String) item));
                    return items;
                }
                return message(m);
            }
        }
    }

    private static Object fieldOr(Message m, String name, Object fallback) {
        FieldDescriptor fd = m.getDescriptorForType().findFieldByName(name);
        return fd == null ? fallback : m.getField(fd);
    }
}
