package io.kubelix.runtime.endpoints;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.storage.WatchEvent;
import io.kubelix.runtime.codec.Codecs;
import io.kubelix.runtime.codec.protobuf.ProtobufEncoder;
import io.kubelix.runtime.storage.cacher.CachingObject;
import io.kubelix.runtime.endpoints.responsewriters.StatusObjects;
import io.kubelix.runtime.table.TableConvertor;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Encodes watch events as the lines of a watch stream, {@code {"type":"ADDED","object":{...}}}, or
 * in protobuf as meta/v1 WatchEvent messages, each after its length in 4 big-endian bytes (but on
 * a WebSocket, whose messages frame them), holding the object in its {@code k8s\0} envelope, as
 * kube's protobuf stream serializer writes them. An event that carries shared encodings (from the
 * watch cache) is written from those bytes, never re-serialized and never changed; others are
 * typed for the endpoint and serialized here.
 */
final class WatchEncoder {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final byte[] OBJECT = "\",\"object\":".getBytes(StandardCharsets.UTF_8);
    private static final byte[] TYPE = "{\"type\":\"".getBytes(StandardCharsets.UTF_8);
    /** Each event type's name, by ordinal. */
    private static final byte[][] TYPE_NAMES = Arrays.stream(WatchEvent.Type.values())
            .map(t -> t.name().getBytes(StandardCharsets.UTF_8)).toArray(byte[][]::new);

    /** The stream's encoding: JSON lines, or protobuf events, framed by their length or not. */
    record Form(boolean protobuf, boolean framed) {
        static final Form JSON = new Form(false, false);

        static Form protobuf(boolean framed) {
            return new Form(true, framed);
        }
    }

    private final RequestScope scope;
    private final Form form;
    private final TableConvertor table;
    private final boolean bookmarks;
    private final java.util.function.IntConsumer sent;

    /** @param sent told the size of each event encoded */
    WatchEncoder(RequestScope scope, TableConvertor table, boolean bookmarks, Form form,
                 java.util.function.IntConsumer sent) {
        this.scope = scope;
        this.form = form;
        this.sent = sent;
        this.table = table;
        this.bookmarks = bookmarks;
    }

    /** Appends the event's line to {@code out}; returns false when the event is not sent (an unwanted bookmark). */
    boolean encode(WatchEvent ev, ByteArrayOutputStream out) {
        int before = out.size();
        boolean encoded = encodeLine(ev, out);
        if (encoded) {
            sent.accept(out.size() - before);
        }
        return encoded;
    }

    private boolean encodeLine(WatchEvent ev, ByteArrayOutputStream out) {
        ObjectNode object;
        switch (ev.type()) {
            case BOOKMARK -> {
                if (!bookmarks) {
                    return false;
                }
                object = F.objectNode();
                object.put("kind", scope.storage.kind());
                object.put("apiVersion", scope.groupVersion.apiVersion());
                object.set("metadata", ev.object().path("metadata").deepCopy());
            }
            case ERROR -> object = StatusObjects.failure(ev.error());
            default -> {
                if (form.protobuf() && ev.json() instanceof CachingObject shared && isTyped(ev.object())) {
                    writeEvent(out, ev.type(), ProtobufEncoder.envelope(scope.groupVersion.apiVersion(),
                            scope.storage.kind(), shared.protobuf()));
                    return true;
                }
                if (!form.protobuf() && table == null && ev.json() != null && isTyped(ev.object())) {
                    writeLine(out, ev.type(), ev.json().get());
                    return true;
                }
                ObjectNode obj = ResourceHandlers.typed(scope, ev.json() != null ? ev.object().deepCopy() : ev.object());
                object = table == null ? obj : table.table(List.of(obj), F.objectNode()
                        .put("resourceVersion", obj.path("metadata").path("resourceVersion").asText("")));
            }
        }
        if (form.protobuf()) {
            writeEvent(out, ev.type(), ProtobufEncoder.encode(object));
        } else {
            writeLine(out, ev.type(), Codecs.toJson(object));
        }
        return true;
    }

    private void writeEvent(ByteArrayOutputStream out, WatchEvent.Type type, byte[] enveloped) {
        ProtobufEncoder.watchEvent(type.name(), enveloped, form.framed(), out);
    }

    private boolean isTyped(ObjectNode o) {
        return scope.groupVersion.apiVersion().equals(o.path("apiVersion").asText())
                && scope.storage.kind().equals(o.path("kind").asText());
    }

    private static void writeLine(ByteArrayOutputStream out, WatchEvent.Type type, byte[] object) {
        out.writeBytes(TYPE);
        out.writeBytes(TYPE_NAMES[type.ordinal()]);
        out.writeBytes(OBJECT);
        out.writeBytes(object);
        out.write('}');
        out.write('\n');
    }
}
