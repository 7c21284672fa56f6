package io.kubelix.bench;

import org.HdrHistogram.Histogram;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;

/**
 * One watch stream, read as newline-delimited JSON without a thread of its own. Per event it keeps
 * the delivery latency (receive time minus the {@code sent} timestamp the writer put in the
 * configmap's data) and checks resourceVersions: each once, strictly increasing.
 *
 * <p>Events are neither decoded to text nor parsed: a thousand watchers see a hundred thousand
 * events per second, and the client shares the machine's two cores with the server, so the stream
 * is split into lines and fields are picked out of each line's bytes by position (in place when a
 * line lies in one buffer, as an event in its own DATA frame does). The line format is the API
 * server's JSON watch encoding.
 */
final class Watcher implements Flow.Subscriber<List<ByteBuffer>> {
    private static final byte[] TYPE = bytes("\"type\":\"");
    private static final byte[] RESOURCE_VERSION = bytes("\"resourceVersion\":\"");
    private static final byte[] SENT = bytes("\"sent\":\"");

    /**
     * The start of the measured phase (epoch µs); the seconds of {@link #maxBySecond} count from it.
     * Events sent before it (the warm-up) are recorded too, so that each histogram has grown to its
     * size before the measured phase, and are then dropped by {@link #startMeasuring()}.
     */
    static volatile long recordFromMicros;

    final Histogram latency = Stats.histogram();
    /** The largest delivery latency (µs) of the events sent in each second of the measured phase. */
    long[] maxBySecond = new long[32];
    final CompletableFuture<Integer> opened = new CompletableFuture<>();
    volatile int received;
    int duplicates;
    int outOfOrder;
    int errors;
    int bookmarks;
    volatile boolean ended;
    volatile Throwable failure;
    private long lastRv;
    /** The resourceVersions received in increasing order (so sorted), and any that came out of order. */
    private long[] inOrder = new long[1024];
    private int inOrderCount;
    private final Set<Long> others = new HashSet<>();
    /** A line split across buffers, assembled. */
    private byte[] line = new byte[2048];
    private int length;
    /** Where bytes of a direct buffer are copied to be scanned. */
    private byte[] scratch = new byte[16384];

    /**
     * Opens the watch with java.net.http (the {@code --client jdk} choice); {@link #opened}
     * completes with the HTTP status when the response headers arrive.
     */
    void start(HttpClient client, HttpRequest request) {
        client.sendAsync(request, info -> {
            opened.complete(info.statusCode());
            return HttpResponse.BodySubscribers.fromSubscriber(this);
        }).whenComplete((r, t) -> {
            if (t != null) {
                failure = t;
                opened.complete(-1);
            }
            ended = true;
        });
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        s.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(List<ByteBuffer> buffers) {
        for (ByteBuffer b : buffers) {
            accept(b);
        }
    }

    /** The next bytes of the stream. */
    synchronized void accept(ByteBuffer b) {
        long now = Stats.nowMicros();
        if (b.hasArray()) {
            split(b.array(), b.arrayOffset() + b.position(), b.arrayOffset() + b.limit(), now);
        } else {
            int n = b.remaining();
            if (scratch.length < n) {
                scratch = new byte[Math.max(n, 2 * scratch.length)];
            }
            b.get(scratch, 0, n);
            split(scratch, 0, n, now);
        }
    }

    /** Handles each line that ends in {@code data[from, to)}; keeps the unfinished rest. */
    private void split(byte[] data, int from, int to, long now) {
        int start = from;
        for (int i = from; i < to; i++) {
            if (data[i] == '\n') {
                if (length == 0) {
                    event(data, start, i, now);
                } else {
                    append(data, start, i);
                    event(line, 0, length, now);
                    length = 0;
                }
                start = i + 1;
            }
        }
        append(data, start, to);
    }

    private void append(byte[] data, int from, int to) {
        int n = to - from;
        if (length + n > line.length) {
            line = Arrays.copyOf(line, Math.max(line.length * 2, length + n));
        }
        System.arraycopy(data, from, line, length, n);
        length += n;
    }

    /** One event: the JSON in {@code b[from, to)}. */
    private void event(byte[] b, int from, int to, long now) {
        if (to == from) {
            return;
        }
        int type = after(b, from, to, TYPE);
        if (type < 0) {
            errors++;
            return;
        }
        if (startsWith(b, type, to, "BOOKMARK")) {
            bookmarks++;
            return;
        }
        if (!startsWith(b, type, to, "MODIFIED\"") && !startsWith(b, type, to, "ADDED\"")
                && !startsWith(b, type, to, "DELETED\"")) {
            errors++;
            return;
        }
        record(number(b, after(b, type, to, RESOURCE_VERSION), to));
        int sentAt = lastAfter(b, from, to, SENT);
        if (sentAt >= 0) {
            long sent = number(b, sentAt, to);
            long micros = Math.min(Stats.MAX_MICROS, Math.max(0, now - sent));
            latency.recordValue(micros);
            if (sent >= recordFromMicros) {
                int second = (int) ((sent - recordFromMicros) / 1_000_000);
                if (second >= maxBySecond.length) {
                    maxBySecond = Arrays.copyOf(maxBySecond, Math.max(second + 1, 2 * maxBySecond.length));
                }
                maxBySecond[second] = Math.max(maxBySecond[second], micros);
            }
        }
        received++;
    }

    /**
     * Forgets the latencies recorded so far (the warm-up's) but keeps the histogram's grown counts:
     * an auto-resizing histogram that first grew in the measured phase would copy its counts, in
     * every watcher at once, and the client's pause would be measured as the server's latency.
     */
    synchronized void startMeasuring() {
        latency.reset();
        Arrays.fill(maxBySecond, 0);
    }

    /** Counts a resourceVersion: new and in order, a duplicate, or new but out of order. */
    private void record(long rv) {
        if (rv > lastRv) {
            if (inOrderCount == inOrder.length) {
                inOrder = Arrays.copyOf(inOrder, inOrder.length * 2);
            }
            inOrder[inOrderCount++] = rv;
            lastRv = rv;
        } else if (Arrays.binarySearch(inOrder, 0, inOrderCount, rv) >= 0 || !others.add(rv)) {
            duplicates++;
        } else {
            outOfOrder++;
        }
    }

    /** Whether this stream delivered {@code rv}. */
    synchronized boolean saw(long rv) {
        return Arrays.binarySearch(inOrder, 0, inOrderCount, rv) >= 0 || others.contains(rv);
    }

    /** How many distinct resourceVersions this stream delivered. */
    synchronized int distinct() {
        return inOrderCount + others.size();
    }

    @Override
    public void onError(Throwable t) {
        failure = t;
        ended = true;
    }

    @Override
    public void onComplete() {
        ended = true;
    }

    /** The index just past the first {@code needle} in {@code b[from, to)}, or -1. */
    private static int after(byte[] b, int from, int to, byte[] needle) {
        int last = to - needle.length;
        byte first = needle[0];
        for (int i = Math.max(0, from); i <= last; i++) {
            if (b[i] == first && matchesAt(b, i, needle)) {
                return i + needle.length;
            }
        }
        return -1;
    }

    /** The index just past the last {@code needle} in {@code b[from, to)} (the data comes last in an event), or -1. */
    private static int lastAfter(byte[] b, int from, int to, byte[] needle) {
        byte first = needle[0];
        for (int i = to - needle.length; i >= from; i--) {
            if (b[i] == first && matchesAt(b, i, needle)) {
                return i + needle.length;
            }
        }
        return -1;
    }

    private static boolean matchesAt(byte[] b, int at, byte[] needle) {
        for (int j = 1; j < needle.length; j++) {
            if (b[at + j] != needle[j]) {
                return false;
            }
        }
        return true;
    }

    private static boolean startsWith(byte[] b, int at, int to, String prefix) {
        if (at < 0 || at + prefix.length() > to) {
            return false;
        }
        for (int i = 0; i < prefix.length(); i++) {
            if (b[at + i] != prefix.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** The decimal digits at {@code at} (a quoted number's first digit), or -1. */
    private static long number(byte[] b, int at, int to) {
        if (at < 0 || at >= to || b[at] < '0' || b[at] > '9') {
            return -1;
        }
        long v = 0;
        for (int i = at; i < to && b[i] >= '0' && b[i] <= '9'; i++) {
            v = v * 10 + (b[i] - '0');
        }
        return v;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
