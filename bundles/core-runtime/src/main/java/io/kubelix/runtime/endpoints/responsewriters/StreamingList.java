package io.kubelix.runtime.endpoints.responsewriters;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.storage.ListResult;
import io.kubelix.runtime.codec.Codecs;
import io.kubelix.runtime.storage.cacher.CachingObject;
import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.io.RetainableByteBuffer;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.IteratingCallback;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A list's JSON body streamed to the response, as kube 1.33's streaming list encoder writes it: the
 * envelope ({@code kind}, {@code apiVersion}, {@code metadata}), then each item encoded as it is
 * taken, {@value #CHUNK} bytes at a time, so neither the body nor all the items' encodings are held
 * at once. The bytes are those of the list built as a tree and encoded whole.
 * <p>
 * Items carry no {@code kind} or {@code apiVersion}, as in kube's typed lists. An item whose
 * encoding the watch cache already has (its watchers needed it) is used from after those two fields
 * when it begins with the endpoint's; any other item is encoded here without them, and that
 * encoding is dropped once written: keeping it would double the heap a large cache needs.
 */
public final class StreamingList {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final byte[] ITEMS = ",\"items\":[".getBytes(StandardCharsets.UTF_8);
    private static final byte[] COMMA = {','};
    private static final byte[] OPEN = {'{'};
    private static final byte[] END = {']', '}'};
    /** Below G1's humongous-object size for any heap, so a chunk is an ordinary young allocation. */
    public static final int CHUNK = 128 * 1024;

    /** The envelope's JSON without its closing brace. */
    private final byte[] head;
    /** The two ways Jackson begins an item typed as the endpoint's: apiVersion first, or kind first. */
    private final byte[][] prefixes;
    private final ListResult result;

    private StreamingList(byte[] head, byte[][] prefixes, ListResult result) {
        this.head = head;
        this.prefixes = prefixes;
        this.result = result;
    }

    /**
     * The JSON of {@code {"kind":kind+"List","apiVersion":apiVersion,"metadata":listMeta,"items":[...]}}
     * for {@code result}'s items, each without its own kind and apiVersion. The items are read, never changed.
     *
     * @param kind the items' kind
     */
    public static StreamingList of(String kind, String apiVersion, ObjectNode listMeta, ListResult result) {
        ObjectNode envelope = F.objectNode();
        envelope.put("kind", kind + "List");
        envelope.put("apiVersion", apiVersion);
        envelope.set("metadata", listMeta);
        byte[] json = Codecs.toJson(envelope);
        byte[][] prefixes = {
                prefix("{\"apiVersion\":", apiVersion, ",\"kind\":", kind),
                prefix("{\"kind\":", kind, ",\"apiVersion\":", apiVersion),
        };
        return new StreamingList(Arrays.copyOf(json, json.length - 1), prefixes, result);
    }

    /** The whole body in one array (the audit log's copy, and tests); responses are streamed by {@link #write}. */
    public byte[] toByteArray() {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        Cursor cursor = new Cursor();
        ByteBuffer chunk = ByteBuffer.allocate(CHUNK);
        boolean done;
        do {
            chunk.clear();
            done = cursor.fill(chunk);
            all.write(chunk.array(), 0, chunk.position());
        } while (!done);
        return all.toByteArray();
    }

    /**
     * Writes the body as the response's content, one chunk at a time, each filled once the previous
     * one is written; {@code callback} completes when the last one is written or a write fails.
     */
    void write(Response response, Callback callback) {
        ByteBufferPool pool = response.getRequest().getComponents().getByteBufferPool();
        new ChunkWriter(response, pool.acquire(CHUNK, false), callback).iterate();
    }

    /**
     * Where the next bytes come from: the piece being copied ({@code piece} from {@code offset} to
     * {@code end}), up to two pieces queued after it, and the next item.
     */
    private final class Cursor {
        private final List<ObjectNode> items = result.items();
        private final List<Supplier<byte[]>> json = result.json();
        private final ByteArrayBuilder scratch = new ByteArrayBuilder(2048);
        private final byte[][] queued = new byte[2][];
        private final int[] queuedFrom = new int[2];
        private int queuedCount;
        private byte[] piece = head;
        private int offset;
        private int end = head.length;
        private int next = -1;

        /** Copies the next bytes into {@code out} until it is full; true once the body's end was copied. */
        boolean fill(ByteBuffer out) {
            while (out.hasRemaining()) {
                if (offset == end && !advance()) {
                    return true;
                }
                int n = Math.min(out.remaining(), end - offset);
                out.put(piece, offset, n);
                offset += n;
            }
            return offset == end && next > items.size();
        }

        /** Moves to the next piece; false after the last. */
        private boolean advance() {
            if (queuedCount > 0) {
                set(queued[0], queuedFrom[0]);
                queued[0] = queued[1];
                queuedFrom[0] = queuedFrom[1];
                queued[1] = null;
                queuedCount--;
                return true;
            }
            next++;
            if (next == 0) {
                set(ITEMS, 0);
            } else if (next <= items.size()) {
                item(next - 1);
            } else if (next == items.size() + 1) {
                set(END, 0);
            } else {
                return false;
            }
            return true;
        }

        /** Queues item {@code i}'s pieces: a comma after the first, then its encoding without kind and apiVersion. */
        private void item(int i) {
            Supplier<byte[]> shared = json == null ? null : json.get(i);
            byte[] b = shared instanceof CachingObject c ? c.encodedJson() : shared == null ? null : shared.get();
            int skip = b == null ? -1 : startsWith(b, prefixes[0]) ? prefixes[0].length
                    : startsWith(b, prefixes[1]) ? prefixes[1].length : -1;
            if (skip >= 0) {
                queue(OPEN, 0);
                queue(b, skip);
            } else {
                ObjectNode o = shared instanceof CachingObject c ? c.object() : items.get(i);
                queue(untyped(o), 0);
            }
            if (i > 0) {
                set(COMMA, 0);
            } else {
                advance();
            }
        }

        private void queue(byte[] b, int from) {
            queued[queuedCount] = b;
            queuedFrom[queuedCount] = from;
            queuedCount++;
        }

        private void set(byte[] b, int from) {
            piece = b;
            offset = from;
            end = b.length;
        }

        /** {@code o}'s JSON without its top-level kind and apiVersion, written as Jackson writes the tree without them. */
        private byte[] untyped(ObjectNode o) {
            scratch.reset();
            try (JsonGenerator g = Codecs.json().createGenerator(scratch)) {
                g.writeStartObject();
                for (Map.Entry<String, JsonNode> field : o.properties()) {
                    if (!field.getKey().equals("apiVersion") && !field.getKey().equals("kind")) {
                        g.writeFieldName(field.getKey());
                        Codecs.json().writeTree(g, field.getValue());
                    }
                }
                g.writeEndObject();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return scratch.toByteArray();
        }
    }

    /** Fills the chunk, writes it, and fills it again when the write completes. */
    private final class ChunkWriter extends IteratingCallback {
        private final Response response;
        private final RetainableByteBuffer buffer;
        private final Callback callback;
        private final Cursor cursor = new Cursor();
        private boolean written;

        ChunkWriter(Response response, RetainableByteBuffer buffer, Callback callback) {
            this.response = response;
            this.buffer = buffer;
            this.callback = callback;
        }

        @Override
        protected Action process() {
            if (written) {
                return Action.SUCCEEDED;
            }
            ByteBuffer chunk = buffer.getByteBuffer();
            chunk.clear();
            written = cursor.fill(chunk);
            chunk.flip();
            response.write(written, chunk, this);
            return Action.SCHEDULED;
        }

        @Override
        protected void onCompleteSuccess() {
            buffer.release();
            callback.succeeded();
        }

        @Override
        protected void onCompleteFailure(Throwable cause) {
            buffer.release();
            callback.failed(cause);
        }
    }

    /** The start of an object's JSON whose first two fields are {@code a} and {@code b}, as Jackson writes them. */
    private static byte[] prefix(String fieldA, String a, String fieldB, String b) {
        String s = fieldA + new String(Codecs.toJson(F.textNode(a)), StandardCharsets.UTF_8)
                + fieldB + new String(Codecs.toJson(F.textNode(b)), StandardCharsets.UTF_8) + ",";
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static boolean startsWith(byte[] b, byte[] prefix) {
        return b.length >= prefix.length && Arrays.equals(b, 0, prefix.length, prefix, 0, prefix.length);
    }
}
