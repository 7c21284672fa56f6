package io.kubelix.runtime.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.kubelix.api.request.RequestInfo;
import io.kubelix.runtime.metrics.AuditMetrics;
import io.kubelix.runtime.metrics.ServerMetrics;
import io.kubelix.runtime.server.Settings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.BundleContext;

import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The --audit-* flags: kube's checks and messages, and the backends they build. */
class AuditOptionsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final BundleContext NO_PROPERTIES = (BundleContext) Proxy.newProxyInstance(
            AuditOptionsTest.class.getClassLoader(), new Class<?>[] {BundleContext.class}, (p, m, a) -> null);

    @TempDir
    Path dir;
    private final AuditMetrics metrics = new AuditMetrics(new ServerMetrics());

    @Test
    void withoutAPolicyNothingIsAuditedAndAnInvalidPolicyOrFlagStopsTheStart() throws Exception {
        assertNull(AuditOptions.build(settings(Map.of("audit-log-path", dir.resolve("a.log").toString())), metrics));
        Path policy = policy("rules: [{level: Metadata}]");
        assertNull(AuditOptions.build(settings(Map.of("audit-policy-file", policy.toString())), metrics),
                "a policy without a backend audits nothing");
        Path invalid = policy("rules: [{level: Loud}]");
        assertEquals("loading audit policy file: rules[0].level: Unsupported value: \"Loud\": supported values: \"None\","
                + " \"Metadata\", \"Request\", \"RequestResponse\": from file " + invalid,
                assertThrows(IllegalArgumentException.class, () -> AuditOptions.build(settings(Map.of(
                        "audit-policy-file", invalid.toString())), metrics)).getMessage());
        assertEquals("invalid audit log mode async, allowed modes are \"batch,blocking,blocking-strict\", invalid audit"
                + " log format yaml, allowed formats are \"legacy,json\", --audit-log-maxage -1 can't be a negative number",
                assertThrows(IllegalArgumentException.class, () -> AuditOptions.build(settings(Map.of(
                        "audit-policy-file", policy.toString(), "audit-log-path", "-", "audit-log-mode", "async",
                        "audit-log-format", "yaml", "audit-log-maxage", "-1")), metrics)).getMessage());
        assertEquals("invalid audit batch log buffer size 0, must be a positive number",
                assertThrows(IllegalArgumentException.class, () -> AuditOptions.build(settings(Map.of(
                        "audit-policy-file", policy.toString(), "audit-log-path", "-", "audit-log-mode", "batch",
                        "audit-log-batch-buffer-size", "0")), metrics)).getMessage());
    }

    @Test
    void theLogBackendWritesEachEventAsALineOfTheFileItCreates() throws Exception {
        Path log = dir.resolve("logs").resolve("audit.log");
        AuditOptions.Audit audit = AuditOptions.build(settings(Map.of("audit-policy-file",
                policy("rules: [{level: Metadata}]").toString(), "audit-log-path", log.toString(),
                "audit-log-format", "legacy")), metrics);
        assertTrue(Files.exists(log), "created at start, as kube's ensureLogFile");
        audit.backend().processEvents(List.of(BufferedBackendTest.event("one"), BufferedBackendTest.event("two")));
        audit.backend().shutdown();
        List<String> lines = Files.readAllLines(log);
        assertEquals(2, lines.size());
        assertTrue(lines.get(1).contains("AUDIT: id=\"two\""), lines.toString());
    }

    @Test
    void theWebhookGetsEventListsInBatchesAndFailedPostsAreRetried() throws Exception {
        List<JsonNode> posts = new CopyOnWriteArrayList<>();
        AtomicInteger calls = new AtomicInteger();
        HttpServer webhook = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        webhook.createContext("/audit", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            int code = calls.incrementAndGet() == 1 ? 503 : 200;
            if (code == 200) {
                posts.add(JSON.readTree(body));
                assertEquals("Bearer secret", exchange.getRequestHeaders().getFirst("Authorization"));
            }
            exchange.sendResponseHeaders(code, -1);
            exchange.close();
        });
        webhook.start();
        try {
            Path kubeconfig = dir.resolve("webhook.kubeconfig");
            Files.writeString(kubeconfig, """
                    apiVersion: v1
                    kind: Config
                    clusters:
                    - name: audit
                      cluster:
                        server: http://127.0.0.1:%d/audit
                    users:
                    - name: apiserver
                      user:
                        token: secret
                    """.formatted(webhook.getAddress().getPort()));
            AuditOptions.Audit audit = AuditOptions.build(settings(Map.of("audit-policy-file",
                    policy("rules: [{level: Metadata}]").toString(), "audit-webhook-config-file", kubeconfig.toString(),
                    "audit-webhook-initial-backoff", "100ms", "audit-webhook-batch-max-wait", "1s")), metrics);
            RequestInfo info = new RequestInfo(true, "/api/v1/pods", "list", "api", "", "v1", "", "pods", "", "",
                    List.of());
            assertEquals(Level.Metadata, audit.evaluator().evaluate(null, info).level());
            audit.backend().processEvents(List.of(BufferedBackendTest.event("a"), BufferedBackendTest.event("b")));
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (posts.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            audit.backend().shutdown();
            assertEquals(1, posts.size());
            JsonNode list = posts.get(0);
            assertEquals("EventList", list.path("kind").asText());
            assertEquals("audit.k8s.io/v1", list.path("apiVersion").asText());
            assertEquals(2, list.path("items").size());
            assertEquals("a", list.path("items").path(0).path("auditID").asText());
            assertTrue(list.path("items").path(0).path("kind").isMissingNode(), "items are untyped, as kube's");
            assertEquals(2, calls.get(), "the 503 was retried");
        } finally {
            webhook.stop(0);
        }
    }

    private Path policy(String rules) throws Exception {
        Path p = Files.createTempFile(dir, "policy", ".yaml");
        Files.writeString(p, "apiVersion: audit.k8s.io/v1\nkind: Policy\n" + rules + "\n");
        return p;
    }

    private static Settings settings(Map<String, String> values) {
        return new Settings(new HashMap<>(values), NO_PROPERTIES);
    }
}
