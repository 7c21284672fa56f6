package io.kubelix.runtime.endpoints.responsewriters;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.storage.ListResult;
import io.kubelix.runtime.codec.Codecs;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.IteratingCallback;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A list's JSON body written from its items' shared encodings (a list served from the watch cache),
 * without decoding them: the envelope ({@code kind}, {@code apiVersion}, {@code metadata}) and the
 * items' bytes, streamed to the response in chunks of {@value #CHUNK} bytes, so a large list is
 * never copied into one array. The result is byte for byte the encoding of the list built as a
 * tree. Items carry no {@code kind} or {@code apiVersion}, as in kube's typed lists: an item's
 * bytes are used from after those two fields when they begin with the endpoint's, and written after
 * an opening brace; any other item is copied, stripped of them and encoded.
 */
public final class EncodedList {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final byte[] ITEMS = ",\"items\":[".getBytes(StandardCharsets.UTF_8);
    private static final byte[] COMMA = {','};
    private static final byte[] OPEN = {'{'};
    private static final byte[] END = {']', '}'};
    /** Below G1's humongous-object size for any heap, so a chunk is an ordinary young allocation. */
    public static final int CHUNK = 128 * 1024;

    /** The body's pieces in order: {@code segments[i]} from {@code from[i]} to {@code to[i]}. */
    private final byte[][] segments;
    private final int[] from;
    private final int[] to;
    private final long length;

    private EncodedList(byte[][] segments, int[] from, int[] to, long length) {
        this.segments = segments;
        this.from = from;
        this.to = to;
        this.length = length;
    }

    /**
     * The JSON of {@code {"kind":kind+"List","apiVersion":apiVersion,"metadata":listMeta,"items":[...]}}.
     *
     * @param kind    the items' kind
     * @param untyped removes an object's apiVersion and kind (changes and returns it)
     */
    public static EncodedList encode(String kind, String apiVersion, ObjectNode listMeta, ListResult result,
                                     UnaryOperator<ObjectNode> untyped) {
        ObjectNode envelope = F.objectNode();
        envelope.put("kind", kind + "List");
        envelope.put("apiVersion", apiVersion);
        envelope.set("metadata", listMeta);
        byte[] head = Codecs.toJson(envelope);
        byte[][] prefixes = {
                prefix("{\"apiVersion\":", apiVersion, ",\"kind\":", kind),
                prefix("{\"kind\":", kind, ",\"apiVersion\":", apiVersion),
        };

        List<ObjectNode> objects = result.items();
        int n = objects.size();
        Pieces pieces = new Pieces(3 * n + 3);
        // The envelope's head without its closing brace, then the items.
        pieces.add(head, 0, head.length - 1);
        pieces.add(ITEMS, 0, ITEMS.length);
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                pieces.add(COMMA, 0, 1);
            }
            byte[] b = result.json().get(i).get();
            int skip = startsWith(b, prefixes[0]) ? prefixes[0].length
                    : startsWith(b, prefixes[1]) ? prefixes[1].length : -1;
            if (skip < 0) {
                b = Codecs.toJson(untyped.apply(objects.get(i).deepCopy()));
                pieces.add(b, 0, b.length);
            } else {
                pieces.add(OPEN, 0, 1);
                pieces.add(b, skip, b.length);
            }
        }
        pieces.add(END, 0, END.length);
        return new EncodedList(pieces.arrays(), pieces.from(), pieces.to(), pieces.length);
    }

    /** The segments of a body being assembled. */
    private static final class Pieces {
        private final List<byte[]> arrays;
        private int[] from;
        private int[] to;
        private long length;

        Pieces(int expected) {
            arrays = new java.util.ArrayList<>(expected);
            from = new int[expected];
            to = new int[expected];
        }

        void add(byte[] array, int start, int end) {
            int i = arrays.size();
            if (i == from.length) {
                from = Arrays.copyOf(from, i * 2 + 1);
                to = Arrays.copyOf(to, i * 2 + 1);
            }
            arrays.add(array);
            from[i] = start;
            to[i] = end;
            length += end - start;
        }

        byte[][] arrays() {
            return arrays.toArray(new byte[0][]);
        }

        int[] from() {
            return Arrays.copyOf(from, arrays.size());
        }

        int[] to() {
            return Arrays.copyOf(to, arrays.size());
        }
    }

    /** The body's length in bytes. */
    long length() {
        return length;
    }

    /** The whole body in one array (for small lists and tests; responses are streamed by {@link #write}). */
    byte[] toByteArray() {
        if (length > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("a list of " + length + " bytes does not fit in one array");
        }
        ByteBuffer all = ByteBuffer.allocate((int) length);
        new Cursor().fill(all);
        return all.array();
    }

    /**
     * Writes the body as the response's content, {@value #CHUNK} bytes at a time, each chunk written
     * once the previous one is; {@code callback} completes when the last one is written or fails.
     */
    void write(Response response, Callback callback) {
        new ChunkWriter(response, callback).iterate();
    }

    /** Where the next byte comes from: a segment and an offset in it. */
    private final class Cursor {
        private int segment;
        private int offset = segments.length == 0 ? 0 : from[0];

        /** Copies the next bytes into {@code out} until it is full; true once the body's end was copied. */
        boolean fill(ByteBuffer out) {
            while (segment < segments.length && out.hasRemaining()) {
                int n = Math.min(out.remaining(), to[segment] - offset);
                out.put(segments[segment], offset, n);
                offset += n;
                if (offset == to[segment]) {
                    segment++;
                    offset = segment < segments.length ? from[segment] : 0;
                }
            }
            return segment == segments.length;
        }
    }

    /** Fills one chunk, writes it, and fills it again when the write completes. */
    private final class ChunkWriter extends IteratingCallback {
        private final Response response;
        private final Callback callback;
        private final Cursor cursor = new Cursor();
        private final ByteBuffer chunk = ByteBuffer.allocate((int) Math.min(CHUNK, Math.max(1, length)));
        private boolean written;

        ChunkWriter(Response response, Callback callback) {
            this.response = response;
            this.callback = callback;
        }

        @Override
        protected Action process() {
            if (written) {
                return Action.SUCCEEDED;
            }
            chunk.clear();
            written = cursor.fill(chunk);
            chunk.flip();
            response.write(written, chunk, this);
            return Action.SCHEDULED;
        }

        @Override
        protected void onCompleteSuccess() {
            callback.succeeded();
        }

        @Override
        protected void onCompleteFailure(Throwable cause) {
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
