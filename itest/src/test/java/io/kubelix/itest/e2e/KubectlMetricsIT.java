package io.kubelix.itest.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code GET /metrics} as Prometheus scrapes kube-apiserver: parsed by Prometheus' own client
 * parser, with kube's metric names, labels and buckets, counters that move with what kubectl does,
 * and access as kube's RBAC gives it (the {@code system:monitoring} group).
 */
class KubectlMetricsIT extends KubectlSuite {
    private static final Map<String, String> CONFIGMAPS = Map.of("group", "", "version", "v1",
            "resource", "configmaps", "component", "apiserver");

    KubectlMetricsIT() {
        super("metrics", "configmaps");
    }

    private PrometheusScrape scrape() throws Exception {
        return PrometheusScrape.parse(kubectl.ok("get", "--raw", "/metrics").stdout(), false);
    }

    private static Map<String, String> with(Map<String, String> labels, String... more) {
        Map<String, String> all = new java.util.HashMap<>(labels);
        for (int i = 0; i < more.length; i += 2) {
            all.put(more[i], more[i + 1]);
        }
        return all;
    }

    @Test
    void requestCountersMoveWithKubectl() throws Exception {
        kubectl.ok("create", "namespace", "metrics-count");
        PrometheusScrape before = scrape();
        for (int i = 0; i < 3; i++) {
            kubectl.ok("create", "configmap", "c" + i, "-n", "metrics-count", "--from-literal=k=v");
        }
        kubectl.ok("get", "configmap", "c0", "-n", "metrics-count");
        kubectl.ok("get", "configmaps", "-n", "metrics-count");
        kubectl.run("get", "configmap", "missing", "-n", "metrics-count");
        PrometheusScrape after = scrape();

        Map<String, String> created = with(CONFIGMAPS, "verb", "POST", "scope", "resource", "code", "201", "dry_run", "");
        assertEquals(3, after.sum("apiserver_request_total", created) - before.sum("apiserver_request_total", created));
        Map<String, String> got = with(CONFIGMAPS, "verb", "GET", "scope", "resource", "code", "200");
        assertEquals(1, after.sum("apiserver_request_total", got) - before.sum("apiserver_request_total", got));
        Map<String, String> notFound = with(CONFIGMAPS, "verb", "GET", "scope", "resource", "code", "404");
        assertEquals(1, after.sum("apiserver_request_total", notFound) - before.sum("apiserver_request_total", notFound));
        Map<String, String> listed = with(CONFIGMAPS, "verb", "LIST", "scope", "namespace", "code", "200");
        assertEquals(1, after.sum("apiserver_request_total", listed) - before.sum("apiserver_request_total", listed));

        Map<String, String> admitted = Map.of("type", "admit", "operation", "CREATE", "rejected", "false");
        String step = "apiserver_admission_step_admission_duration_seconds_count";
        assertTrue(after.sum(step, admitted) - before.sum(step, admitted) >= 3, "each create went through admission");
        Map<String, String> validated = Map.of("type", "validate", "operation", "CREATE", "rejected", "false");
        assertTrue(after.sum(step, validated) - before.sum(step, validated) >= 3);
        Map<String, String> quota = Map.of("name", "ResourceQuota", "type", "validate", "operation", "CREATE");
        String controller = "apiserver_admission_controller_admission_duration_seconds_count";
        assertTrue(after.sum(controller, quota) - before.sum(controller, quota) >= 3, "each plugin is timed by name");

        Map<String, String> postLatency = with(CONFIGMAPS, "verb", "POST", "scope", "resource");
        assertEquals(3, after.sum("apiserver_request_duration_seconds_count", postLatency)
                - before.sum("apiserver_request_duration_seconds_count", postLatency));
        Map<String, String> listSizes = with(CONFIGMAPS, "verb", "LIST", "scope", "namespace");
        assertEquals(1, after.sum("apiserver_response_sizes_count", listSizes)
                - before.sum("apiserver_response_sizes_count", listSizes));
        assertTrue(after.sum("apiserver_response_sizes_sum", listSizes) - before.sum("apiserver_response_sizes_sum", listSizes) > 300,
                "a list of three configmaps is a few hundred bytes");
    }

    @Test
    void metricsHaveKubesTypesLabelsAndBuckets() throws Exception {
        kubectl.ok("get", "configmaps", "-A");
        PrometheusScrape s = scrape();
        assertEquals("counter", s.family("apiserver_request").type());
        assertEquals("histogram", s.family("apiserver_request_duration_seconds").type());
        assertEquals("histogram", s.family("apiserver_response_sizes").type());
        assertEquals("gauge", s.family("apiserver_longrunning_requests").type());
        assertEquals("counter", s.family("process_cpu_seconds").type());
        assertTrue(s.has("jvm_memory_used_bytes"), "JVM metrics are scraped");

        List<String> le = s.samples("apiserver_request_duration_seconds_bucket",
                        with(CONFIGMAPS, "verb", "LIST", "scope", "cluster")).stream()
                .map(x -> x.labels().get("le")).toList();
        assertEquals(List.of("0.005", "0.025", "0.05", "0.1", "0.2", "0.4", "0.6", "0.8", "1.0", "1.25", "1.5", "2.0",
                "3.0", "4.0", "5.0", "6.0", "8.0", "10.0", "15.0", "20.0", "30.0", "45.0", "60.0", "+Inf"), le);
        List<String> sizes = s.samples("apiserver_response_sizes_bucket", with(CONFIGMAPS, "verb", "LIST", "scope", "cluster"))
                .stream().map(x -> x.labels().get("le")).toList();
        assertEquals(List.of("1000.0", "10000.0", "100000.0", "1000000.0", "1.0E7", "1.0E8", "1.0E9", "+Inf"), sizes);
        assertEquals(Map.of("verb", "LIST", "dry_run", "", "group", "", "version", "v1", "resource", "configmaps",
                        "subresource", "", "scope", "cluster", "component", "apiserver", "code", "200").keySet(),
                s.samples("apiserver_request_total", with(CONFIGMAPS, "verb", "LIST", "scope", "cluster")).get(0).labels().keySet());
    }

    @Test
    void openMetricsWhenAskedFor() throws Exception {
        HttpResponse<String> r = server.getWithHeaders("/metrics", adminToken(), "Accept",
                "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5");
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("application/openmetrics-text"),
                r.headers().toString());
        assertTrue(r.body().endsWith("# EOF\n"));
        PrometheusScrape s = PrometheusScrape.parse(r.body(), true);
        assertEquals("counter", s.family("apiserver_request").type());

        HttpResponse<String> text = server.getWithHeaders("/metrics", adminToken(), "Accept", "text/plain");
        assertTrue(text.headers().firstValue("Content-Type").orElse("").startsWith("text/plain; version=0.0.4"),
                text.headers().toString());
    }

    @Test
    void theMonitoringGroupMayScrapeAndOthersMayNot() throws Exception {
        Kubectl.Result monitor = kubectl.run("get", "--raw", "/metrics", "--as=prometheus", "--as-group=system:monitoring");
        assertEquals(0, monitor.exitCode(), monitor.toString());
        PrometheusScrape.parse(monitor.stdout(), false);

        Kubectl.Result other = kubectl.run("get", "--raw", "/metrics", "--as=someone");
        assertEquals(1, other.exitCode(), other.toString());
        assertTrue(other.stderr().contains("forbidden: User \"someone\" cannot get path \"/metrics\""), other.stderr());
        HttpResponse<String> anonymous = server.get("/metrics", null);
        assertEquals(403, anonymous.statusCode(), anonymous.body());
    }

    @Test
    void watchesAreLongRunningRequests() throws Exception {
        kubectl.ok("create", "namespace", "metrics-watch");
        Map<String, String> watching = with(CONFIGMAPS, "verb", "WATCH", "scope", "namespace");
        Process watch = kubectl.background(work.resolve("watch.out"), "get", "configmaps", "-n", "metrics-watch",
                "--watch-only", "-o", "name");
        Map<String, String> configMapKind = Map.of("group", "", "version", "v1", "kind", "ConfigMap");
        try {
            server.await("the watch counted as long-running", POLL_TIMEOUT, this::scrape,
                    s -> s.sum("apiserver_longrunning_requests", watching) == 1);
            PrometheusScrape before = scrape();
            kubectl.ok("create", "configmap", "watched", "-n", "metrics-watch", "--from-literal=k=v");
            server.await("the event sent counted", POLL_TIMEOUT, () -> Files.readString(work.resolve("watch.out")),
                    out -> out.contains("configmap/watched"));
            PrometheusScrape after = scrape();
            assertEquals(1, after.sum("apiserver_watch_events_total", configMapKind)
                    - before.sum("apiserver_watch_events_total", configMapKind));
            double bytes = after.sum("apiserver_watch_events_sizes_sum", configMapKind)
                    - before.sum("apiserver_watch_events_sizes_sum", configMapKind);
            assertTrue(bytes > 200 && bytes < 2000, "one ADDED event of a small configmap: " + bytes);
            assertTrue(after.sum("kubelix_watch_cache_watchers", Map.of("resource", "configmaps")) >= 1);
        } finally {
            watch.destroy();
            watch.waitFor();
        }
        server.await("the watch no longer counted", POLL_TIMEOUT, this::scrape,
                s -> s.sum("apiserver_longrunning_requests", watching) == 0);
    }

    @Test
    void storageObjectsCountWhatIsStored() throws Exception {
        kubectl.ok("create", "namespace", "metrics-objects");
        Map<String, String> configmaps = Map.of("resource", "configmaps");
        Map<String, String> namespaces = Map.of("resource", "namespaces");
        PrometheusScrape before = scrape();
        double stored = before.sum("apiserver_storage_objects", configmaps);
        assertEquals(kubectl.ok("get", "configmaps", "-A", "-o", "name").stdout().lines().count(), stored);
        assertEquals(kubectl.ok("get", "namespaces", "-o", "name").stdout().lines().count(),
                before.sum("apiserver_storage_objects", namespaces));
        kubectl.ok("create", "configmap", "one", "-n", "metrics-objects");
        kubectl.ok("create", "configmap", "two", "-n", "metrics-objects");
        server.await("two more configmaps counted", POLL_TIMEOUT, this::scrape,
                s -> s.sum("apiserver_storage_objects", configmaps) == stored + 2);
        PrometheusScrape after = scrape();
        assertTrue(after.sum("apiserver_watch_cache_events_received_total", configmaps)
                >= before.sum("apiserver_watch_cache_events_received_total", configmaps) + 2);
        assertTrue(after.sum("apiserver_watch_cache_resource_version", configmaps)
                > before.sum("apiserver_watch_cache_resource_version", configmaps));
        assertTrue(after.sum("watch_cache_capacity", configmaps) >= 100);
    }

    @Test
    void storageRequestsAndPluginsAreMeasured() throws Exception {
        kubectl.ok("create", "namespace", "metrics-storage");
        Map<String, String> creates = Map.of("operation", "create", "type", "configmaps");
        PrometheusScrape before = scrape();
        kubectl.ok("create", "configmap", "stored", "-n", "metrics-storage");
        PrometheusScrape after = scrape();
        // The default storage is SQLite: its requests are timed as kube times etcd's.
        assertEquals(1, after.sum("kubelix_sql_request_duration_seconds_count", creates)
                - before.sum("kubelix_sql_request_duration_seconds_count", creates));
        assertEquals(1, after.sum("kubelix_sql_requests_total", creates) - before.sum("kubelix_sql_requests_total", creates));
        assertTrue(after.sum("kubelix_plugins", Map.of("state", "Active")) >= 20, "every shipped plugin is active");
        assertEquals(0, after.sum("kubelix_plugins", Map.of("state", "Installed")), "no plugin fails to resolve");
    }

    @Test
    void aPluginUpdateIsCountedWithItsDrainTime() throws Exception {
        Map<String, String> coordination = Map.of("plugin", "io.kubelix.resource-coordination");
        java.nio.file.Path jar;
        try (java.util.stream.Stream<java.nio.file.Path> jars = Files.list(server.plugins())) {
            jar = jars.filter(p -> p.getFileName().toString().startsWith("resource-coordination-")).findFirst().orElseThrow();
        }
        // A new file in the jar's place, as a copy of a new version would be: FileInstall updates the bundle.
        java.nio.file.Path copy = work.resolve(jar.getFileName());
        Files.copy(jar, copy);
        copy.toFile().setLastModified(System.currentTimeMillis() + 2000);
        Files.move(copy, jar, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        PrometheusScrape s = server.await("the update counted", POLL_TIMEOUT, this::scrape,
                x -> x.sum("kubelix_plugin_updates_total", coordination) >= 1);
        assertTrue(s.sum("kubelix_plugin_update_drain_seconds_count", coordination) >= 1);
        assertTrue(s.sum("kubelix_plugin_update_drain_seconds_sum", coordination) < 10,
                "the new revision took over well within the swap grace period");
        kubectl.ok("get", "leases", "-A");
    }

    /**
     * Every metric the Grafana dashboard of {@code docs/grafana} queries is one this server serves,
     * so a renamed metric or a misspelt query breaks the build instead of a user's dashboard. The
     * only names allowed to be missing are those of components this server does not run (etcd) and
     * those a labelled family shows only after its first event (a terminated request, a plugin update).
     */
    @Test
    void theGrafanaDashboardQueriesMetricsTheServerServes() throws Exception {
        kubectl.ok("create", "namespace", "metrics-dashboard");
        kubectl.ok("create", "configmap", "shown", "-n", "metrics-dashboard", "--from-literal=k=v");
        HttpResponse<String> watch = server.get("/api/v1/namespaces/metrics-dashboard/configmaps?watch=1&resourceVersion=0"
                + "&timeoutSeconds=1", adminToken());
        assertEquals(200, watch.statusCode(), watch.body());
        assertTrue(watch.body().contains("\"ADDED\""), watch.body());
        PrometheusScrape s = scrape();

        Path dashboard = Path.of(System.getProperty("kubelix.itest.root", ".."),
                "docs", "grafana", "kubelix-apiserver.json");
        JsonNode panels = new ObjectMapper()
                .readTree(dashboard.toFile()).path("panels");
        Pattern metric = Pattern.compile(
                "(?<![a-z_])((?:apiserver|etcd|kubelix|jvm|process)_[a-z_]+)");
        Set<String> queried = new TreeSet<>();
        for (JsonNode panel : panels) {
            for (JsonNode target : panel.path("targets")) {
                metric.matcher(target.path("expr").asText()).results().forEach(m -> queried.add(m.group(1)));
            }
        }
        assertTrue(queried.size() >= 20, "the dashboard queries the request, storage, watch, plugin and JVM metrics: " + queried);
        Set<String> notYetShown = Set.of("etcd_request_duration_seconds_bucket", "etcd_requests_total",
                "apiserver_request_terminations_total", "kubelix_plugin_updates_total",
                "kubelix_plugin_update_drain_seconds_bucket", "apiserver_admission_webhook_admission_duration_seconds_bucket",
                "apiserver_admission_webhook_rejection_count");
        List<String> missing = queried.stream()
                .filter(name -> !notYetShown.contains(name) && s.samples(name, Map.of()).isEmpty())
                .toList();
        assertEquals(List.of(), missing, "metrics the dashboard queries but the server does not serve");
    }

    private String adminToken() throws Exception {
        return Files.readAllLines(server.dataDir().resolve("tokens.csv"), StandardCharsets.UTF_8).stream()
                .filter(l -> l.contains("system:masters")).map(l -> l.split(",", 2)[0].trim())
                .collect(Collectors.toList()).get(0);
    }
}
