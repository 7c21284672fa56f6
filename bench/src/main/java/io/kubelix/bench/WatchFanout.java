package io.kubelix.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.HdrHistogram.Histogram;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * watch-fanout: N watches on one namespace's configmaps, then U merge-patches at R per second,
 * each carrying its send time. Every watcher must see every update once, in resourceVersion order.
 * {@code --group-version /apis/G/V --resource R --kind K} watches and patches another namespaced
 * resource instead (such as an extension server's, through an aggregator), whose objects carry the
 * send time in an annotation.
 */
final class WatchFanout {
    private final Kube kube;
    private final String ns;
    private final int watchers;
    private final int updates;
    private final double rate;
    private final int objects;
    private final int drainSeconds;
    private final int warmupUpdates;
    private final ServerProbe probe;
    private final String groupVersion;
    private final String resource;
    private final String kind;
    /** Why updates failed (a status and body, or an exception), and how often. */
    private final Map<String, Integer> failures = new ConcurrentHashMap<>();

    WatchFanout(Kube kube, Options o) {
        this.kube = kube;
        this.ns = o.get("namespace", "bench-fanout");
        this.watchers = o.integer("watchers", 1000);
        this.updates = o.integer("updates", 500);
        this.rate = o.number("rate", 100);
        this.objects = o.integer("objects", 10);
        this.drainSeconds = o.integer("drain-seconds", 30);
        this.warmupUpdates = o.integer("warmup-updates", 2000);
        this.probe = new ServerProbe(o.get("server-pid"));
        this.groupVersion = o.get("group-version", "/api/v1");
        this.resource = o.get("resource", "configmaps");
        this.kind = o.get("kind", "ConfigMap");
    }

    private boolean configMaps() {
        return resource.equals("configmaps") && groupVersion.equals("/api/v1");
    }

    private String collection() {
        return groupVersion + "/namespaces/" + ns + "/" + resource;
    }

    /** An object to update: a configmap's send time is data, another kind's an annotation. */
    private ObjectNode newObject(String name) {
        if (configMaps()) {
            return Kube.configMap(name, "sent", "0");
        }
        ObjectNode o = Kube.JSON.createObjectNode().put("apiVersion", groupVersion.replaceFirst("^/apis?/", ""))
                .put("kind", kind);
        o.putObject("metadata").put("name", name).putObject("annotations").put("sent", "0");
        return o;
    }

    private ObjectNode patch(long sent, int seq) {
        ObjectNode patch = Kube.JSON.createObjectNode();
        ObjectNode fields = configMaps() ? patch.putObject("data") : patch.putObject("metadata").putObject("annotations");
        fields.put("sent", Long.toString(sent)).put("seq", Integer.toString(seq));
        return patch;
    }

    void run() throws Exception {
        System.out.printf("watch-fanout: %d watchers on %s, %d updates at %.0f/s over %d %s"
                + " (after %d warm-up updates at the same rate)%n", watchers, collection(), updates, rate, objects, resource,
                warmupUpdates);
        // 1. A namespace with a few objects to update.
        kube.ensureNamespace(ns);
        kube.call("DELETE", collection(), null);
        for (int i = 0; i < objects; i++) {
            kube.call("POST", collection(), newObject("fanout-" + i));
        }
        String rv = kube.call("GET", collection(), null).path("metadata").path("resourceVersion").asText();

        String procBefore = probe.procStatus();

        // 2. Open every watch from that resourceVersion and wait until all are open.
        long openStart = System.nanoTime();
        List<Watcher> ws = new ArrayList<>();
        for (int i = 0; i < watchers; i++) {
            Watcher w = new Watcher();
            kube.watch(i, collection()
                    + "?watch=true&resourceVersion=" + rv + "&timeoutSeconds=3600", w);
            ws.add(w);
            if (i % 200 == 199) {
                CompletableFuture.allOf(ws.subList(i - 199, i + 1).stream().map(x -> x.opened)
                        .toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
            }
        }
        CompletableFuture.allOf(ws.stream().map(x -> x.opened).toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
        long notOk = ws.stream().filter(w -> w.opened.join() != 200).count();
        System.out.printf("opened %d watches in %d ms (%d not 200)%n", watchers - notOk,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - openStart), notOk);
        Thread.sleep(1000);

        // 3. Warm-up: the same updates, checked like the others but not timed, so that neither the
        //    server's nor this client's JIT compiler is measured. Then the measured updates.
        Set<Long> expected = ConcurrentHashMap.newKeySet();
        int[] failedWrites = {0};
        Watcher.recordFromMicros = Long.MAX_VALUE;
        if (warmupUpdates > 0) {
            updatePhase(0, warmupUpdates, expected, Stats.histogram(), failedWrites);
            drain(ws, expected);
            System.out.printf("warm-up: %d updates delivered to %d watchers%n", expected.size(),
                    ws.stream().filter(w -> w.received >= expected.size()).count());
        }
        for (Watcher w : ws) {
            w.startMeasuring();
        }
        Histogram writeLatency = Stats.histogram();
        double serverCpu0 = probe.cpuSeconds();
        double clientCpu0 = ServerProbe.clientCpuSeconds();
        long updStart = System.nanoTime();
        Watcher.recordFromMicros = Stats.nowMicros();
        updatePhase(warmupUpdates, updates, expected, writeLatency, failedWrites);
        double achieved = updates / ((System.nanoTime() - updStart) / 1e9);

        // 4. Let the streams drain.
        drain(ws, expected);

        double wall = (System.nanoTime() - updStart) / 1e9;
        double serverCpu = probe.cpuSeconds() - serverCpu0;
        double clientCpu = ServerProbe.clientCpuSeconds() - clientCpu0;

        // 5. Tally.
        Histogram all = Stats.histogram();
        long[] maxBySecond = new long[(int) Math.ceil(updates / rate)];
        long missed = 0, extra = 0, dup = 0, ooo = 0, errors = 0, ended = 0, complete = 0;
        for (Watcher w : ws) {
            synchronized (w) {
                all.add(w.latency);
                for (int i = 0; i < Math.min(maxBySecond.length, w.maxBySecond.length); i++) {
                    maxBySecond[i] = Math.max(maxBySecond[i], w.maxBySecond[i]);
                }
                long got = expected.stream().filter(w::saw).count();
                missed += expected.size() - got;
                extra += w.distinct() - got;
                dup += w.duplicates;
                ooo += w.outOfOrder;
                errors += w.errors;
                ended += w.ended ? 1 : 0;
                complete += got == expected.size() && w.duplicates == 0 && w.outOfOrder == 0 ? 1 : 0;
            }
        }
        System.out.printf("update+drain phase: %.1f s wall; CPU seconds: server %s, client %.1f; load average %s%n", wall,
                serverCpu < 0 ? "n/a" : String.format("%.1f", serverCpu), clientCpu, ServerProbe.loadAverage());
        System.out.printf("server process before the watches: %s; after the run: %s%n", procBefore, probe.procStatus());
        System.out.printf("updates: %d acknowledged, %d failed, %.1f/s achieved%n", expected.size(), failedWrites[0], achieved);
        failures.forEach((why, n) -> System.out.printf("  failed %d times: %s%n", n, why));
        System.out.println(Stats.header());
        System.out.println(Stats.row("update (PATCH) latency", writeLatency));
        System.out.println(Stats.row("event delivery latency (all watchers)", all));
        System.out.printf("slowest delivery of the events sent in each second (ms): %s%n", java.util.Arrays.stream(maxBySecond)
                .mapToObj(m -> Long.toString(m / 1000)).collect(java.util.stream.Collectors.joining(" ")));
        System.out.printf("events expected per watcher %d (warm-up and measured), in all %d; measured events delivered %d%n",
                expected.size(), (long) expected.size() * watchers, all.getTotalCount());
        System.out.printf("watchers complete (all events, once, in order): %d/%d%n", complete, watchers);
        System.out.printf("missed %d, duplicated %d, out-of-order %d, unexpected %d, error events %d, streams ended early %d%n",
                missed, dup, ooo, extra, errors, ended);
    }

    /** {@code count} merge-patches at the configured rate; the resourceVersion each one got goes to {@code expected}. */
    private void updatePhase(int first, int count, Set<Long> expected, Histogram writeLatency, int[] failedWrites)
            throws Exception {
        List<CompletableFuture<?>> pending = new ArrayList<>();
        Pacer pacer = new Pacer(rate);
        for (int i = 0; i < count; i++) {
            pacer.awaitTick(i);
            long sent = Stats.nowMicros();
            int seq = first + i;
            pending.add(kube.send("PATCH", collection() + "/fanout-" + (seq % objects),
                    "application/merge-patch+json", Kube.JSON.writeValueAsBytes(patch(sent, seq))).thenAccept(r -> {
                synchronized (writeLatency) {
                    writeLatency.recordValue(Math.max(0, Stats.nowMicros() - sent));
                    if (r.statusCode() != 200) {
                        failedWrites[0]++;
                        failures.merge("HTTP " + r.statusCode() + " " + new String(r.body(), StandardCharsets.UTF_8).strip(),
                                1, Integer::sum);
                        return;
                    }
                }
                expected.add(resourceVersionOf(r));
            }).exceptionally(t -> {
                synchronized (writeLatency) {
                    failedWrites[0]++;
                    failures.merge(t.toString(), 1, Integer::sum);
                }
                return null;
            }));
        }
        CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
    }

    /** Waits until every open stream has every acknowledged update, or {@code --drain-seconds}. */
    private void drain(List<Watcher> ws, Set<Long> expected) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(drainSeconds);
        while (System.nanoTime() < deadline && ws.stream().anyMatch(w -> w.received < expected.size() && !w.ended)) {
            Thread.sleep(20);
        }
    }

    static long resourceVersionOf(HttpResponse<byte[]> r) {
        try {
            return Long.parseLong(Kube.JSON.readTree(r.body()).path("metadata").path("resourceVersion").asText());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
