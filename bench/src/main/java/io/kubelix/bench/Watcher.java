package io.kubelix.bench;

import org.HdrHistogram.Histogram;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;

/**
 * One watch stream, read as newline-delimited JSON without a thread of its own. Per event it keeps
 * the delivery latency (receive time minus the {@code sent} timestamp the writer put in the
 * configmap's data) and checks resourceVersions: each once, strictly increasing.
 *
 * <p>Events are not fully parsed: a thousand watchers see a hundred thousand events per second,
 * and the client shares the machine's two cores with the server, so fields are picked out of the
 * line by position. The line format is the API server's JSON watch encoding.
 */
final class Watcher implements Flow.Subscriber<String> {
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

    /** Opens the watch; {@link #opened} completes with the HTTP status when the response headers arrive. */
    void start(HttpClient client, HttpRequest request) {
        client.sendAsync(request, info -> {
            opened.complete(info.statusCode());
            return HttpResponse.BodyHandlers.fromLineSubscriber(this, s -> null, "\n").apply(info);
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
    public synchronized void onNext(String line) {
        long now = Stats.nowMicros();
        if (line.isBlank()) {
            return;
        }
        String type = field(line, "\"type\":\"", 0);
        if ("BOOKMARK".equals(type)) {
            bookmarks++;
            return;
        }
        if (!"MODIFIED".equals(type) && !"ADDED".equals(type) && !"DELETED".equals(type)) {
            errors++;
            return;
        }
        String rvText = field(line, "\"resourceVersion\":\"", 0);
        long rv = rvText == null ? -1 : Long.parseLong(rvText);
        if (!seen.add(rv)) {
            duplicates++;
        } else if (rv <= lastRv) {
            outOfOrder++;
        }
        lastRv = Math.max(lastRv, rv);
        String sent = field(line, "\"sent\":\"", 0);
        if (sent != null) {
            latency.recordValue(Math.min(Stats.MAX_MICROS, Math.max(0, now - Long.parseLong(sent))));
        }
        received++;
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

    private static String field(String line, String prefix, int from) {
        int i = line.indexOf(prefix, from);
        if (i < 0) {
            return null;
        }
        int start = i + prefix.length();
        int end = line.indexOf('"', start);
        return end < 0 ? null : line.substring(start, end);
    }
}
