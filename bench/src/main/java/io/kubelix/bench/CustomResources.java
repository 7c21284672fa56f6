package io.kubelix.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/**
 * custom-resources: the same workload on configmaps and on custom resources of the same server, in
 * rotation, so that the machine's load falls on each alike. It creates two CRDs (one without
 * validation rules, one with {@code --rules} x-kubernetes-validations rules on its spec) and waits until both are
 * Established; then each round, for each kind in turn, N creates with C requests in flight, N GETs
 * of them, L LISTs of the N (consistent reads, one at a time) and a deletecollection. Objects carry
 * the same payload (B bytes) in a configmap's data and in a custom resource's spec. Reports per phase
 * the rate, latency and the server's CPU per request ({@code --server-pid}); at the end the median
 * over rounds of each kind's rate as a fraction of the configmaps', and the server CPU a create with
 * the rules costs more than one without them, per rule.
 */
final class CustomResources {
    private static final String GROUP = "bench.kubelix.io";
    private static final String[] RULES = {
        "self.size <= self.max",
        "self.name.startsWith('w-')",
        "self.tags.all(t, t.size() > 0 && t.size() <= 63)",
        "!has(self.owner) || self.owner != self.name",
        "self.tags.size() <= 16",
    };

    private record Kind(String name, String plural, int rules) {
    }

    private final Kube kube;
    private final int count;
    private final int inFlight;
    private final int rounds;
    private final int lists;
    private final int ruleCount;
    private final String namespace;
    private final String payload;
    private final ServerProbe probe;
    /** kind, then phase: the rate and server CPU of each round. */
    private final Map<String, Map<String, List<double[]>>> results = new LinkedHashMap<>();

    CustomResources(Kube kube, Options o) {
        this.kube = kube;
        this.count = o.integer("count", 1000);
        this.inFlight = o.integer("in-flight", 8);
        this.rounds = o.integer("rounds", 3);
        this.lists = o.integer("lists", 20);
        this.ruleCount = Math.min(o.integer("rules", 3), RULES.length);
        this.namespace = o.get("namespace", "bench-crs");
        this.payload = "x".repeat(o.integer("bytes", 1024));
        this.probe = new ServerProbe(o.get("server-pid"));
    }

    void run() throws Exception {
        List<Kind> kinds = List.of(new Kind("configmap", null, 0), new Kind("widget", "widgets", 0),
                new Kind("ruledwidget", "ruledwidgets", ruleCount));
        System.out.printf("custom-resources: %d objects of %d bytes per kind, %d in flight, %d LISTs, %d rounds; "
                + "ruledwidgets validated by %d CEL rules%n", count, payload.length(), inFlight, lists, rounds, ruleCount);
        for (Kind k : kinds) {
            if (k.plural() != null) {
                createCrd(k);
            }
        }
        kube.ensureNamespace(namespace);
        for (int round = 1; round <= rounds; round++) {
            System.out.printf("%n### round %d, load average %s%n%n", round, ServerProbe.loadAverage());
            System.out.println("| kind | phase | requests | failed | wall s | per second | p50 ms | p99 ms | server CPU ms per request |");
            System.out.println("|---|---|---|---|---|---|---|---|---|");
            // each round starts with another kind, so that none always runs first
            for (int j = 0; j < kinds.size(); j++) {
                Kind k = kinds.get((j + round - 1) % kinds.size());
                String path = path(k);
                phase(k, "create", count, i -> kube.send("POST", path, "application/json", Kube.bytes(object(k, i)))
                        .thenApply(r -> r.statusCode() == 201));
                phase(k, "get", count, i -> kube.send("GET", path + "/" + name(k, i), null, null)
                        .thenApply(r -> r.statusCode() == 200));
                phase(k, "list", lists, i -> kube.send("GET", path, null, null).thenApply(r -> listed(r)));
                kube.call("DELETE", path, null);
            }
        }
        summary();
        System.out.printf("%nload average %s%n", ServerProbe.loadAverage());
    }

    private void summary() {
        System.out.printf("%n### medians over %d rounds%n%n", rounds);
        System.out.println("| phase | configmap per second | widget per second (ratio) | ruledwidget per second (ratio) |");
        System.out.println("|---|---|---|---|");
        for (String phase : List.of("create", "get", "list")) {
            double cm = median(results.get("configmap").get(phase), 0);
            double w = median(results.get("widget").get(phase), 0);
            double rw = median(results.get("ruledwidget").get(phase), 0);
            System.out.printf(Locale.ROOT, "| %s | %.0f | %.0f (%.2f) | %.0f (%.2f) |%n", phase, cm, w, w / cm, rw, rw / cm);
        }
        double plain = median(results.get("widget").get("create"), 1);
        double ruled = median(results.get("ruledwidget").get("create"), 1);
        if (plain >= 0) {
            System.out.printf(Locale.ROOT, "%nserver CPU per create: widget %.1f µs, ruledwidget %.1f µs: %.1f µs more "
                    + "for %d rules, %.1f µs per rule%n", plain, ruled, ruled - plain, ruleCount, (ruled - plain) / ruleCount);
        }
    }

    private static double median(List<double[]> rows, int column) {
        double[] v = rows.stream().mapToDouble(r -> r[column]).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    private void createCrd(Kind k) throws Exception {
        String name = k.plural() + "." + GROUP;
        kube.send("DELETE", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + name, null, null).join();
        while (kube.send("GET", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + name, null, null).join()
                .statusCode() != 404) {
            Thread.sleep(200);
        }
        ObjectNode crd = Kube.JSON.createObjectNode().put("apiVersion", "apiextensions.k8s.io/v1")
                .put("kind", "CustomResourceDefinition");
        crd.putObject("metadata").put("name", name);
        ObjectNode spec = crd.putObject("spec").put("group", GROUP).put("scope", "Namespaced");
        String kind = Character.toUpperCase(k.name().charAt(0)) + k.name().substring(1);
        spec.putObject("names").put("plural", k.plural()).put("kind", kind);
        ObjectNode version = spec.putArray("versions").addObject().put("name", "v1").put("served", true).put("storage", true);
        ObjectNode specSchema = Kube.JSON.createObjectNode().put("type", "object");
        ObjectNode props = specSchema.putObject("properties");
        props.putObject("data").put("type", "string").put("maxLength", 65536);
        props.putObject("size").put("type", "integer");
        props.putObject("max").put("type", "integer");
        props.putObject("name").put("type", "string").put("maxLength", 63);
        props.putObject("owner").put("type", "string").put("maxLength", 63);
        ObjectNode tags = props.putObject("tags").put("type", "array").put("maxItems", 16);
        tags.putObject("items").put("type", "string").put("maxLength", 63);
        if (k.rules() > 0) {
            ArrayNode rules = specSchema.putArray("x-kubernetes-validations");
            for (int r = 0; r < k.rules(); r++) {
                rules.addObject().put("rule", RULES[r]);
            }
        }
        ObjectNode root = version.putObject("schema").putObject("openAPIV3Schema").put("type", "object");
        root.putObject("properties").set("spec", specSchema);
        kube.call("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd);
        for (int i = 0; ; i++) {
            JsonNode got = kube.call("GET", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + name, null);
            boolean established = false;
            for (JsonNode c : got.path("status").path("conditions")) {
                established |= c.path("type").asText().equals("Established") && c.path("status").asText().equals("True");
            }
            if (established && kube.send("GET", path(k), null, null).join().statusCode() == 200) {
                return;
            }
            if (i > 300) {
                throw new IOException(name + " not Established after 60 s");
            }
            Thread.sleep(200);
        }
    }

    private String path(Kind k) {
        return k.plural() == null ? Kube.configMapsPath(namespace) : "/apis/" + GROUP + "/v1/namespaces/" + namespace + "/" + k.plural();
    }

    private static String name(Kind k, int i) {
        return k.name() + "-" + i;
    }

    private ObjectNode object(Kind k, int i) {
        if (k.plural() == null) {
            return Kube.configMap(name(k, i), "data", payload);
        }
        String kind = Character.toUpperCase(k.name().charAt(0)) + k.name().substring(1);
        ObjectNode o = Kube.JSON.createObjectNode().put("apiVersion", GROUP + "/v1").put("kind", kind);
        o.putObject("metadata").put("name", name(k, i));
        ObjectNode spec = o.putObject("spec").put("data", payload).put("size", i % 10).put("max", 10)
                .put("name", "w-" + i).put("owner", "bench");
        spec.putArray("tags").add("a").add("b").add("c");
        return o;
    }

    private boolean listed(HttpResponse<byte[]> r) {
        if (r.statusCode() != 200) {
            return false;
        }
        try {
            // a namespace's configmaps include its kube-root-ca.crt
            return Kube.JSON.readTree(r.body()).path("items").size() >= count;
        } catch (IOException e) {
            return false;
        }
    }

    /** Sends requests 0..n-1, {@code inFlight} at a time (one at a time for LISTs), and prints the phase's row. */
    private void phase(Kind k, String phase, int n, IntFunction<CompletableFuture<Boolean>> request) throws Exception {
        Histogram latency = Stats.histogram();
        AtomicInteger failed = new AtomicInteger();
        double cpuBefore = probe.cpuSeconds();
        long start = System.nanoTime();
        InFlight.run(n, phase.equals("list") ? 1 : inFlight, request, latency, failed);
        double wall = (System.nanoTime() - start) / 1e9;
        double cpuMicros = cpuBefore < 0 ? -1 : (probe.cpuSeconds() - cpuBefore) * 1e6 / n;
        results.computeIfAbsent(k.name(), x -> new LinkedHashMap<>()).computeIfAbsent(phase, x -> new ArrayList<>())
                .add(new double[] {n / wall, cpuMicros});
        System.out.printf(Locale.ROOT, "| %s | %s | %d | %d | %.2f | %.0f | %s | %s | %s |%n", k.name(), phase, n, failed.get(),
                wall, n / wall, Stats.ms(latency.getValueAtPercentile(50)), Stats.ms(latency.getValueAtPercentile(99)),
                cpuMicros < 0 ? "n/a" : String.format(Locale.ROOT, "%.3f", cpuMicros / 1000));
    }
}
