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
 * is split into lines and fields are picked out of each line's bytes by position. The line format
 * is the API server's JSON watch encoding.
 */
final class Watcher implements Flow.Subscriber<List<ByteBuffer>> {
    private static final byte[] TYPE = bytes("\"type\":\"");
    private static final byte[] RESOURCE_VERSION = bytes("\"resourceVersion\":\"");
    private static final byte[] SENT = bytes("\"sent\":\"");

    /** Events sent before this moment (epoch µs) are checked but their latency is not recorded: warm-up. */
    static volatile long recordFromMicros;

    final Histogram latency = Stats.histogram();
    final Set<Long> seen = new HashSet<>();
    final CompletableFuture<Integer> opened = new CompletableFuture<>();
    volatile int received;
    int duplicates;
    int outOfOrder;
    int errors;
    int bookmarks;
    volatile boolean ended;
    volatile Throwable failure;
    private long lastRv;
    /** The line being assembled from the stream's buffers. */
    private byte[] line = new byte[2048];
    private int length;
    /** Where bytes of a direct buffer are copied to be scanned. */
    private byte[] scratch = new byte[16384];

    /**
     * Opens the watch with java.net.http (the {@code --watch-client jdk} choice); {@link #opened}
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
            if (scratch.length < b.remaining()) {
                scratch = new byte[Math.max(b.remaining(), 2 * scratch.length)];
            }
            int n = b.remaining();
            b.get(scratch, 0, n);
            split(scratch, 0, n, now);
        }
    }

    /** Appends {@code data[from, to)} to the current line, handling each completed line. */
    private void split(byte[] data, int from, int to, long now) {
        int start = from;
        for (int i = from; i < to; i++) {
            if (data[i] == '\n') {
                append(data, start, i);
                event(now);
                length = 0;
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

    private void event(long now) {
        if (length == 0) {
            return;
        }
        int type = after(TYPE, 0);
        if (type < 0) {
            errors++;
            return;
        }
        if (startsWith(type, "BOOKMARK")) {
            bookmarks++;
            return;
        }
        if (!startsWith(type, "MODIFIED\"") && !startsWith(type, "ADDED\"") && !startsWith(type, "DELETED\"")) {
            errors++;
            return;
        }
        long rv = number(after(RESOURCE_VERSION, type));
        if (!seen.add(rv)) {
            duplicates++;
        } else if (rv <= lastRv) {
            outOfOrder++;
        }
        lastRv = Math.max(lastRv, rv);
        int sentAt = lastAfter(SENT);
        if (sentAt >= 0) {
            long sent = number(sentAt);
            if (sent >= recordFromMicros) {
                latency.recordValue(Math.min(Stats.MAX_MICROS, Math.max(0, now - sent)));
            }
        }
        received++;
    }

    /** The index just past the first {@code needle} at or after {@code from} in the line, or -1. */
    private int after(byte[] needle, int from) {
        int last = length - needle.length;
        outer:
        for (int i = Math.max(0, from); i <= last; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (line[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i + needle.length;
        }
        return -1;
    }

    /** The index just past the last {@code needle} in the line (the data comes last in an event), or -1. */
    private int lastAfter(byte[] needle) {
        outer:
        for (int i = length - needle.length; i >= 0; i--) {
            for (int j = 0; j < needle.length; j++) {
                if (line[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i + needle.length;
        }
        return -1;
    }

    private boolean startsWith(int at, String prefix) {
        if (at + prefix.length() > length) {
            return false;
        }
        for (int i = 0; i < prefix.length(); i++) {
            if (line[at + i] != prefix.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** The decimal digits at {@code at} (a quoted number's first digit), or -1. */
    private long number(int at) {
        if (at < 0 || at >= length || line[at] < '0' || line[at] > '9') {
            return -1;
        }
        long v = 0;
        for (int i = at; i < length && line[i] >= '0' && line[i] <= '9'; i++) {
            v = v * 10 + (line[i] - '0');
        }
        return v;
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

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
