package io.kubelix.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * writes: as fast as the server answers, N creates of 1-KiB configmaps with C requests in flight
 * (each in-flight slot sends its next request when the previous one is answered), then N updates
 * (a PUT of each object with the resourceVersion its last write returned, and one more field), then
 * N deletes, for R rounds, each round in a namespace of its own ({@code --updates U} updates every object
 * U times, one pass after another; {@code --keep} leaves the objects in place, without deletes). Reports per phase the rate, the latency, the
 * server's CPU time per request ({@code --server-pid}) and, with {@code --etcd-metrics URL} (etcd's
 * client URL), the etcd requests per API write read from etcd's own {@code grpc_server_started_total}
 * and, with {@code --etcd-pid}, etcd's CPU time per write.
 * Before its deletes, each round lists its objects: every acknowledged create is there, and every
 * object carries the count of its acknowledged updates and the resourceVersion the last one returned.
 */
final class Writes {
    private static final Pattern GRPC_STARTED =
            Pattern.compile("^grpc_server_started_total\\{[^}]*grpc_method=\"(\\w+)\"[^}]*} (\\S+)$", Pattern.MULTILINE);

    private final Kube kube;
    private final int count;
    private final int inFlight;
    private final int rounds;
    private final int updatePasses;
    private final boolean keep;
    private final String namespacePrefix;
    private final String payload;
    private final ServerProbe probe;
    private final ServerProbe etcdProbe;
    private final URI etcdMetrics;
    private final HttpClient plain = HttpClient.newHttpClient();

    Writes(Kube kube, Options o) {
        this.kube = kube;
        this.count = o.integer("count", 2000);
        this.inFlight = o.integer("in-flight", 8);
        this.rounds = o.integer("rounds", 3);
        this.updatePasses = o.integer("updates", 1);
        this.keep = o.flag("keep");
        this.namespacePrefix = o.get("namespace", "bench-writes");
        this.payload = "x".repeat(o.integer("bytes", 1024));
        this.probe = new ServerProbe(o.get("server-pid"));
        this.etcdProbe = new ServerProbe(o.get("etcd-pid"));
        this.etcdMetrics = o.get("etcd-metrics") == null ? null : URI.create(o.get("etcd-metrics") + "/metrics");
    }

    void run() throws Exception {
        System.out.printf("writes: %d creates, %d updates and %d deletes of %d-byte configmaps, %d in flight, %d rounds%n",
                count, (long) count * updatePasses, keep ? 0 : count, payload.length(), inFlight, rounds);
        int lost = 0;
        for (int round = 1; round <= rounds; round++) {
            String ns = namespacePrefix + "-" + round;
            kube.ensureNamespace(ns);
            kube.deleteConfigMaps(ns);
            String path = Kube.configMapsPath(ns);
            String[] rv = new String[count];
            AtomicLongArray updates = new AtomicLongArray(count);
            System.out.printf("%n### round %d (namespace %s), load average %s%n%n", round, ns, ServerProbe.loadAverage());
            System.out.println("| phase | requests | failed | wall s | per second | p50 ms | p90 ms | p99 ms | max ms"
                    + " | server CPU ms per request | etcd CPU ms per request | etcd requests per write |");
            System.out.println("|---|---|---|---|---|---|---|---|---|---|---|---|");
            phase("create", i -> {
                ObjectNode cm = Kube.configMap("cm-" + i, "payload", payload);
                ((ObjectNode) cm.path("data")).put("n", "0");
                return kube.send("POST", path, "application/json", Kube.bytes(cm))
                        .thenApply(r -> remember(r, 201, rv, i));
            });
            for (int pass = 1; pass <= updatePasses; pass++) {
                update(path, rv, updates, pass);
            }
            int lostHere = verify(ns, rv, updates);
            lost += lostHere;
            if (!keep) {
                phase("delete", i -> rv[i] == null ? CompletableFuture.completedFuture(false)
                        : kube.send("DELETE", path + "/cm-" + i, null, null).thenApply(r -> r.statusCode() == 200));
            }
            System.out.printf("%nround %d: %d acknowledged writes lost%n", round, lostHere);
        }
        System.out.printf("%nall rounds: %d acknowledged writes lost; load average %s%n", lost, ServerProbe.loadAverage());
    }

    /** One pass of updates: each object gets data {@code n} = its count of acknowledged updates so far + 1. */
    private void update(String path, String[] rv, AtomicLongArray updates, int pass) throws Exception {
        phase(updatePasses == 1 ? "update" : "update " + pass, i -> {
            if (rv[i] == null) {
                return CompletableFuture.completedFuture(false);
            }
            ObjectNode cm = Kube.configMap("cm-" + i, "payload", payload);
            ((ObjectNode) cm.path("data")).put("n", Long.toString(updates.get(i) + 1));
            ((ObjectNode) cm.path("metadata")).put("resourceVersion", rv[i]);
            return kube.send("PUT", path + "/cm-" + i, "application/json", Kube.bytes(cm))
                    .thenApply(r -> {
                        boolean ok = remember(r, 200, rv, i);
                        if (ok) {
                            updates.incrementAndGet(i);
                        }
                        return ok;
                    });
        });
    }

    /** Keeps the resourceVersion a successful write returned. */
    private static boolean remember(HttpResponse<byte[]> r, int expected, String[] rv, int i) {
        if (r.statusCode() != expected) {
            return false;
        }
        try {
            rv[i] = Kube.JSON.readTree(r.body()).path("metadata").path("resourceVersion").asText();
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Sends request {@code i} for every i in [0, count), {@code inFlight} at a time, and prints the phase's row. */
    private void phase(String name, IntFunction<CompletableFuture<Boolean>> request) throws Exception {
        Histogram latency = Stats.histogram();
        AtomicInteger failed = new AtomicInteger();
        Map<String, Double> etcdBefore = etcdRequests();
        double cpuBefore = probe.cpuSeconds();
        double etcdCpuBefore = etcdProbe.cpuSeconds();
        long start = System.nanoTime();
        InFlight.run(count, inFlight, request, latency, failed);
        double wall = (System.nanoTime() - start) / 1e9;
        double cpu = probe.cpuSeconds() - cpuBefore;
        double etcdCpu = etcdProbe.cpuSeconds() - etcdCpuBefore;
        Map<String, Double> etcdAfter = etcdRequests();
        System.out.printf(Locale.ROOT, "| %s | %d | %d | %.2f | %.0f | %s | %s | %s | %s | %s | %s | %s |%n", name, count,
                failed.get(), wall, count / wall, Stats.ms(latency.getValueAtPercentile(50)),
                Stats.ms(latency.getValueAtPercentile(90)), Stats.ms(latency.getValueAtPercentile(99)),
                Stats.ms(latency.getMaxValue()), perRequest(cpuBefore, cpu), perRequest(etcdCpuBefore, etcdCpu),
                perWrite(etcdBefore, etcdAfter));
    }

    /** CPU milliseconds per request of the phase, or n/a when the process is not known. */
    private String perRequest(double before, double spent) {
        return before < 0 ? "n/a" : String.format(Locale.ROOT, "%.3f", spent * 1000 / count);
    }

    /** etcd's gRPC requests started so far, by method; empty without {@code --etcd-metrics}. */
    private Map<String, Double> etcdRequests() throws IOException, InterruptedException {
        Map<String, Double> out = new TreeMap<>();
        if (etcdMetrics == null) {
            return out;
        }
        String text = plain.send(HttpRequest.newBuilder(etcdMetrics).GET().build(),
                HttpResponse.BodyHandlers.ofString()).body();
        Matcher m = GRPC_STARTED.matcher(text);
        while (m.find()) {
            out.merge(m.group(1), Double.parseDouble(m.group(2)), Double::sum);
        }
        return out;
    }

    /** The methods etcd served during the phase, per API write: "Txn 1.00, Range 0.01". */
    private String perWrite(Map<String, Double> before, Map<String, Double> after) {
        if (etcdMetrics == null) {
            return "n/a";
        }
        StringBuilder b = new StringBuilder();
        after.forEach((method, n) -> {
            double d = n - before.getOrDefault(method, 0.0);
            if (d > 0) {
                b.append(b.length() == 0 ? "" : ", ")
                        .append(String.format(Locale.ROOT, "%s %.2f", method, d / count));
            }
        });
        return b.length() == 0 ? "none" : b.toString();
    }

    /** Lists the round's configmaps; returns how many acknowledged writes are missing from them. */
    private int verify(String ns, String[] rv, AtomicLongArray updates) throws IOException, InterruptedException {
        JsonNode list = kube.call("GET", Kube.configMapsPath(ns), null);
        Map<String, JsonNode> byName = new TreeMap<>();
        list.path("items").forEach(item -> byName.put(item.path("metadata").path("name").asText(), item));
        int lost = 0;
        for (int i = 0; i < count; i++) {
            if (rv[i] == null) {
                continue;
            }
            JsonNode item = byName.get("cm-" + i);
            if (item == null) {
                lost++;
                continue;
            }
            boolean updateKept = item.path("data").path("n").asText().equals(Long.toString(updates.get(i)));
            boolean versionKept = item.path("metadata").path("resourceVersion").asText().equals(rv[i]);
            if (!updateKept || !versionKept) {
                lost++;
            }
        }
        return lost;
    }
}
