package io.kubelix.runtime.endpoints;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The encoded events of one write of a watch stream, in an array kept from write to write, with
 * where each event ends: an HTTP/2 response writes them as one piece, a chunked HTTP/1.1 response
 * as one whole chunk, a WebSocket as one message per event. Room is kept before the events for a
 * chunk's size line, so framing them as a chunk copies nothing.
 */
final class WatchBatch extends ByteArrayOutputStream {
    /** A batch buffer's first size: one event of a typical object. */
    private static final int START_BYTES = 2 * 1024;
    /** Room for a chunk's size line: up to eight hex digits and CRLF. */
    private static final int PREFIX = 10;

    private int[] ends = new int[8];
    private int events;

    WatchBatch() {
        super(START_BYTES);
        count = PREFIX;
    }

    /** Marks the end of the event just encoded. */
    void endEvent() {
        if (events == ends.length) {
            ends = Arrays.copyOf(ends, events * 2);
        }
        ends[events++] = count;
    }

    int events() {
        return events;
    }

    /** Event {@code i}'s bytes, not copied. */
    ByteBuffer event(int i) {
        int start = i == 0 ? PREFIX : ends[i - 1];
        return ByteBuffer.wrap(buf, start, ends[i] - start);
    }

    /** Every event's bytes, not copied. */
    ByteBuffer bytes() {
        return ByteBuffer.wrap(buf, PREFIX, count - PREFIX);
    }

    /**
     * The events as one HTTP/1.1 chunk: size line, data and the CRLF that ends it, so a client that
     * reads a chunk whole (as urllib3 does) has it without waiting for the next.
     */
    ByteBuffer chunk() {
        byte[] size = (Integer.toHexString(count - PREFIX) + "\r\n").getBytes(StandardCharsets.US_ASCII);
        write('\r');
        write('\n');
        int start = PREFIX - size.length;
        System.arraycopy(size, 0, buf, start, size.length);
        return ByteBuffer.wrap(buf, start, count - start);
    }

    /** Bytes of events encoded since the last {@link #reset()}. */
    @Override
    public synchronized int size() {
        return count - PREFIX;
    }

    int capacity() {
        return buf.length;
    }

    @Override
    public synchronized void reset() {
        count = PREFIX;
        events = 0;
    }
}
