package io.kubelix.bench;

import org.HdrHistogram.Histogram;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * list: K configmaps of about 1 KiB each, then sequential LISTs with resourceVersion=0 (any state,
 * served from the watch cache), with resourceVersion unset (a consistent read), the first page of
 * limit=500, and every page of limit=500 following the continue tokens. (limit with
 * resourceVersion=0 is not used: kube-apiserver's cache ignores limit there and returns everything.)
 */
final class ListBench {
    private final Kube kube;
    private final String ns;
    private final int count;
    private final int iterations;
    private final int warmup;

    ListBench(Kube kube, Options o) {
        this.kube = kube;
        this.ns = o.get("namespace", "bench-list");
        this.count = o.integer("count", 5000);
        this.iterations = o.integer("iterations", 100);
        this.warmup = o.integer("warmup", 30);
    }

    void run() throws Exception {
        System.out.printf("list: %d configmaps of 1 KiB in %s, %d LISTs per variant, after %d of each variant as warm-up%n",
                count, ns, iterations, warmup);
        kube.ensureNamespace(ns);
        int existing = kube.call("GET", Kube.configMapsPath(ns), null).path("items").size();
        if (existing != count) {
            kube.deleteConfigMaps(ns);
            create();
        }
        // Every variant is warmed up before any is timed, so that no variant pays for the JIT
        // compilers of the server and of this client more than another.
        measure("?resourceVersion=0", false);
        measure("", false);
        measure("?limit=500", false);
        measureAllPages(500, false);
        Histogram fromCache = measure("?resourceVersion=0", true);
        Histogram consistent = measure("", true);
        Histogram paged = measure("?limit=500", true);
        Histogram allPages = measureAllPages(500, true);
        System.out.println(Stats.header());
        System.out.println(Stats.row("LIST resourceVersion=0", fromCache));
        System.out.println(Stats.row("LIST resourceVersion unset", consistent));
        System.out.println(Stats.row("LIST limit=500 (first page)", paged));
        System.out.println(Stats.row("LIST limit=500, every page (continue)", allPages));
    }

    /** The time to read the whole list in pages of {@code limit}, following the continue tokens. */
    private Histogram measureAllPages(int limit, boolean timed) throws Exception {
        Histogram h = Stats.histogram();
        int pages = 0;
        int items = 0;
        for (int i = 0; i < (timed ? iterations : warmup); i++) {
            long start = System.nanoTime();
            String token = "";
            pages = 0;
            items = 0;
            do {
                String query = "?limit=" + limit + (token.isEmpty() ? "" : "&continue=" + token);
                JettyHttp2.Body r = kube.measuredGet(Kube.configMapsPath(ns) + query, true);
                if (r.status() != 200) {
                    throw new IllegalStateException("LIST " + query + ": HTTP " + r.status());
                }
                com.fasterxml.jackson.databind.JsonNode page = Kube.JSON.readTree(r.bytes());
                items += page.path("items").size();
                token = page.path("metadata").path("continue").asText("");
                pages++;
            } while (!token.isEmpty());
            h.recordValue(TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - start));
        }
        if (!timed) {
            return h;
        }
        System.out.printf("LIST ?limit=%d, every page: %d items in %d pages (each page parsed to find its continue token)%n",
                limit, items, pages);
        return h;
    }

    private void create() throws Exception {
        long start = System.nanoTime();
        Semaphore inFlight = new Semaphore(16);
        List<CompletableFuture<?>> pending = new ArrayList<>();
        String value = "x".repeat(1024);
        for (int i = 0; i < count; i++) {
            inFlight.acquire();
            byte[] body = Kube.JSON.writeValueAsBytes(Kube.configMap(String.format("cm-%05d", i), "payload", value));
            pending.add(kube.send("POST", Kube.configMapsPath(ns), "application/json", body).whenComplete((r, t) -> {
                inFlight.release();
                if (t != null || r.statusCode() != 201) {
                    System.out.println("create failed: " + (t != null ? t : r.statusCode() + " " + new String(r.body())));
                }
            }));
        }
        CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).get(300, TimeUnit.SECONDS);
        System.out.printf("created %d configmaps in %d ms%n", count, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
    }

    private Histogram measure(String query, boolean timed) throws Exception {
        Histogram h = Stats.histogram();
        long bytes = 0;
        int items = -1;
        for (int i = 0; i < (timed ? iterations : warmup); i++) {
            long start = System.nanoTime();
            JettyHttp2.Body r = kube.measuredGet(Kube.configMapsPath(ns) + query, i == 0);
            long micros = TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - start);
            if (r.status() != 200) {
                throw new IllegalStateException("LIST " + query + ": HTTP " + r.status());
            }
            h.recordValue(micros);
            if (i == 0) {
                bytes = r.length();
                items = Kube.JSON.readTree(r.bytes()).path("items").size();
            }
        }
        if (!timed) {
            return h;
        }
        System.out.printf("LIST%s: %d items, %d KiB per response%n", query.isEmpty() ? " (no query)" : " " + query, items, bytes / 1024);
        return h;
    }
}
