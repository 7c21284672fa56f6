package io.kubelix.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * gc-cascade: the garbage collector's cost. Creates one owner configmap and D dependents that name
 * it in {@code ownerReferences}, then measures the server's CPU while idle for I seconds (what the
 * collector spends on objects nobody changes), then deletes the owner (background propagation) and
 * measures how long until the last dependent is gone, and the server's CPU meanwhile.
 */
final class GcCascade {
    private final Kube kube;
    private final String ns;
    private final int dependents;
    private final int idleSeconds;
    private final int concurrency;
    private final ServerProbe probe;

    GcCascade(Kube kube, Options o) {
        this.kube = kube;
        this.ns = o.get("namespace", "bench-gc");
        this.dependents = o.integer("dependents", 10_000);
        this.idleSeconds = o.integer("idle-seconds", 30);
        this.concurrency = o.integer("concurrency", 32);
        this.probe = new ServerProbe(o.get("server-pid"));
    }

    void run() throws Exception {
        System.out.printf("gc-cascade: %d dependents of one owner in %s; idle %d s, then the owner deleted%n",
                dependents, ns, idleSeconds);
        kube.ensureNamespace(ns);
        kube.deleteConfigMaps(ns);
        String path = Kube.configMapsPath(ns);
        JsonNode owner = kube.call("POST", path, Kube.configMap("owner", "k", "v"));
        long createStart = System.nanoTime();
        Semaphore inFlight = new Semaphore(concurrency);
        List<CompletableFuture<HttpResponse<byte[]>>> pending = new ArrayList<>();
        for (int i = 0; i < dependents; i++) {
            ObjectNode cm = Kube.configMap("dependent-" + i, "k", "v");
            ObjectNode ref = ((ObjectNode) cm.path("metadata")).putArray("ownerReferences").addObject();
            ref.put("apiVersion", "v1").put("kind", "ConfigMap").put("name", "owner")
                    .put("uid", owner.path("metadata").path("uid").asText());
            inFlight.acquire();
            pending.add(kube.send("POST", path, "application/json", Kube.JSON.writeValueAsBytes(cm))
                    .whenComplete((r, t) -> inFlight.release()));
        }
        CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).get(10, TimeUnit.MINUTES);
        long failed = pending.stream().filter(f -> f.join().statusCode() != 201).count();
        System.out.printf("created %d dependents in %.1f s (%d failed)%n", dependents,
                (System.nanoTime() - createStart) / 1e9, failed);

        double idle0 = probe.cpuSeconds();
        Thread.sleep(TimeUnit.SECONDS.toMillis(idleSeconds));
        double idle1 = probe.cpuSeconds();
        System.out.printf("server CPU while idle for %d s with %d objects: %.2f s (%.2f%% of one core); load %s%n",
                idleSeconds, dependents + 1, idle1 - idle0, 100 * (idle1 - idle0) / idleSeconds,
                ServerProbe.loadAverage());

        long deleteStart = System.nanoTime();
        kube.call("DELETE", path + "/owner", null);
        // A one-item page of a consistent LIST: empty once the last dependent is gone.
        while (!kube.call("GET", path + "?limit=1", null).path("items").isEmpty()) {
            Thread.sleep(100);
        }
        double seconds = (System.nanoTime() - deleteStart) / 1e9;
        double cascadeCpu = probe.cpuSeconds() - idle1;
        System.out.printf("cascade: %d dependents gone %.2f s after the owner's DELETE (%.0f/s); server CPU %.2f s%n",
                dependents, seconds, dependents / seconds, cascadeCpu);
    }
}
