package io.kubelix.bench;

import org.HdrHistogram.Histogram;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * idle-watchers: W watches held open on a namespace nobody writes to, while one configmap of another
 * namespace is read at a steady rate; reports GET latency and the server's heap before and after.
 */
final class IdleWatchers {
    private final Kube kube;
    private final ServerProbe probe;
    private final String ns;
    private final String idleNs;
    private final int watchers;
    private final double getRate;
    private final int seconds;

    IdleWatchers(Kube kube, Options o) {
        this.kube = kube;
        this.probe = new ServerProbe(o.get("server-pid"));
        this.ns = o.get("namespace", "bench-idle");
        this.idleNs = ns + "-watched";
        this.watchers = o.integer("watchers", 10_000);
        this.getRate = o.number("rate", 50);
        this.seconds = o.integer("seconds", 60);
    }

    void run() throws Exception {
        System.out.printf("idle-watchers: %d watches on %s/configmaps; GET %s/configmaps/target at %.0f/s for %d s%n",
                watchers, idleNs, ns, getRate, seconds);
        kube.ensureNamespace(ns);
        kube.ensureNamespace(idleNs);
        if (kube.send("GET", Kube.configMapsPath(ns) + "/target", null, null).join().statusCode() == 404) {
            kube.call("POST", Kube.configMapsPath(ns), Kube.configMap("target", "k", "v"));
        }
        String baseHeap = probe.heapAfterGc();
        String baseProc = probe.procStatus();
        Histogram baseline = gets(Math.min(seconds, 15));

        // Open the watches, a few hundred in flight at a time.
        long openStart = System.nanoTime();
        List<Watcher> ws = new ArrayList<>();
        for (int i = 0; i < watchers; i++) {
            Watcher w = new Watcher();
            kube.watch(i, Kube.configMapsPath(idleNs)
                    + "?watch=true&timeoutSeconds=3600", w);
            ws.add(w);
            if (i % 250 == 249) {
                CompletableFuture.allOf(ws.subList(i - 249, i + 1).stream().map(x -> x.opened)
                        .toArray(CompletableFuture[]::new)).get(300, TimeUnit.SECONDS);
            }
        }
        CompletableFuture.allOf(ws.stream().map(x -> x.opened).toArray(CompletableFuture[]::new)).get(300, TimeUnit.SECONDS);
        long open = ws.stream().filter(w -> w.opened.join() == 200).count();
        System.out.printf("opened %d/%d watches in %d ms%n", open, watchers,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - openStart));
        if (open < watchers) {
            System.out.println("watch statuses (-1: client error): " + ws.stream().collect(
                    java.util.stream.Collectors.groupingBy(w -> w.opened.join(), java.util.stream.Collectors.counting())));
            ws.stream().filter(w -> w.failure != null).limit(1).forEach(w -> System.out.println("first failure: " + w.failure));
        }
        String openHeap = probe.heapAfterGc();
        String openProc = probe.procStatus();

        Histogram loaded = gets(seconds);
        long stillOpen = ws.stream().filter(w -> !w.ended).count();
        String endHeap = probe.heapAfterGc();
        String endProc = probe.procStatus();

        System.out.println(Stats.header());
        System.out.println(Stats.row("GET, no watchers", baseline));
        System.out.println(Stats.row("GET, " + open + " idle watchers", loaded));
        System.out.printf("watches still open at the end: %d/%d%n", stillOpen, watchers);
        System.out.printf("server heap after full GC, before watches: %d MiB used (%s)%n", ServerProbe.usedMiB(baseHeap), baseProc);
        System.out.printf("server heap after full GC, watches open: %d MiB used (%s)%n", ServerProbe.usedMiB(openHeap), openProc);
        System.out.printf("server heap after full GC, after the GETs: %d MiB used (%s)%n", ServerProbe.usedMiB(endHeap), endProc);
        System.out.println("jcmd GC.heap_info with watches open:\n" + openHeap);
    }

    /** GETs of the target configmap at the steady rate, sent on schedule whether or not earlier ones returned. */
    private Histogram gets(int forSeconds) throws Exception {
        Histogram h = Stats.histogram();
        AtomicInteger failed = new AtomicInteger();
        List<CompletableFuture<?>> pending = new ArrayList<>();
        Pacer pacer = new Pacer(getRate);
        long n = (long) (getRate * forSeconds);
        for (long i = 0; i < n; i++) {
            pacer.awaitTick(i);
            long sent = Stats.nowMicros();
            pending.add(kube.send("GET", Kube.configMapsPath(ns) + "/target", null, null).thenAccept((HttpResponse<byte[]> r) -> {
                synchronized (h) {
                    h.recordValue(Math.max(0, Stats.nowMicros() - sent));
                }
                if (r.statusCode() != 200) {
                    failed.incrementAndGet();
                }
            }));
        }
        CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
        if (failed.get() > 0) {
            System.out.printf("%d GETs failed%n", failed.get());
        }
        return h;
    }
}
