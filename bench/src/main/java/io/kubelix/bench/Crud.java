package io.kubelix.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.HdrHistogram.Histogram;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * crud: at R cycles per second for T seconds, each cycle creates a configmap, gets it and updates it
 * (PUT of what the GET returned, so with its resourceVersion as precondition). Cycles start on
 * schedule whether or not earlier ones have finished, so a slow server shows as latency, not as a
 * lower rate.
 */
final class Crud {
    private final Kube kube;
    private final String ns;
    private final double rate;
    private final int seconds;
    private final Histogram create = Stats.histogram();
    private final Histogram get = Stats.histogram();
    private final Histogram update = Stats.histogram();
    private final AtomicInteger failures = new AtomicInteger();

    Crud(Kube kube, Options o) {
        this.kube = kube;
        this.ns = o.get("namespace", "bench-crud");
        this.rate = o.number("rate", 50);
        this.seconds = o.integer("seconds", 60);
    }

    void run() throws Exception {
        System.out.printf("crud: create+get+update cycles at %.0f/s for %d s in %s%n", rate, seconds, ns);
        kube.ensureNamespace(ns);
        kube.deleteConfigMaps(ns);
        Pacer pacer = new Pacer(rate);
        List<CompletableFuture<?>> pending = new ArrayList<>();
        long n = (long) (rate * seconds);
        long start = System.nanoTime();
        for (long i = 0; i < n; i++) {
            pacer.awaitTick(i);
            pending.add(cycle("crud-" + i));
        }
        CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
        double achieved = n / ((System.nanoTime() - start) / 1e9);
        System.out.printf("%d cycles, %.1f cycles/s (%.1f requests/s), %d failed requests%n", n, achieved, 3 * achieved,
                failures.get());
        System.out.println(Stats.header());
        System.out.println(Stats.row("create (POST)", create));
        System.out.println(Stats.row("get", get));
        System.out.println(Stats.row("update (PUT)", update));
        kube.deleteConfigMaps(ns);
    }

    private CompletableFuture<?> cycle(String name) throws Exception {
        String path = Kube.configMapsPath(ns);
        byte[] body = Kube.JSON.writeValueAsBytes(Kube.configMap(name, "v", "0"));
        return timed(create, kube.send("POST", path, "application/json", body), 201)
                .thenCompose(r -> timed(get, kube.send("GET", path + "/" + name, null, null), 200))
                .thenCompose(r -> {
                    try {
                        ObjectNode cm = (ObjectNode) Kube.JSON.readTree(r.body());
                        ((ObjectNode) cm.path("data")).put("v", "1");
                        return timed(update, kube.send("PUT", path + "/" + name, "application/json",
                                Kube.JSON.writeValueAsBytes(cm)), 200);
                    } catch (Exception e) {
                        return CompletableFuture.failedFuture(e);
                    }
                })
                .exceptionally(t -> null);
    }

    private CompletableFuture<HttpResponse<byte[]>> timed(Histogram h, CompletableFuture<HttpResponse<byte[]>> f, int ok) {
        long start = System.nanoTime();
        return f.thenApply(r -> {
            synchronized (h) {
                h.recordValue(TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - start));
            }
            if (r.statusCode() != ok) {
                failures.incrementAndGet();
                throw new IllegalStateException("HTTP " + r.statusCode());
            }
            return r;
        });
    }
}
