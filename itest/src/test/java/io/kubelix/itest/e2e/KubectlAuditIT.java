package io.kubelix.itest.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * kube-apiserver's audit log, written by the real distribution started with
 * {@code --audit-policy-file} and {@code --audit-log-path} and driven by the real kubectl: each
 * request's events, checked one by one (level, stage, user, verb, objectRef, responseStatus,
 * objects, annotations), a watch's three stages, a forbidden and an unauthenticated request, the
 * {@code apiserver_audit_*} metrics, rotation with {@code --audit-log-maxsize=1} and
 * {@code --audit-log-maxbackup=1}, and a server refusing to start on an invalid policy.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KubectlAuditIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern BACKUP = Pattern.compile("audit-\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}\\.\\d{3}\\.log");
    private static final String POLICY = """
            apiVersion: audit.k8s.io/v1
            kind: Policy
            rules:
            # Probes, discovery and OpenAPI: not audited.
            - level: None
              nonResourceURLs: ["/readyz*", "/livez*", "/healthz*", "/openapi*", "/api", "/api/*", "/apis", "/apis/*",
                "/version", "/metrics"]
            - level: RequestResponse
              resources: [{group: "", resources: [configmaps]}]
              omitManagedFields: true
            - level: Metadata
              resources: [{group: "", resources: [secrets]}]
              omitStages: [RequestReceived]
            - level: Request
              verbs: [create, update, patch]
            - level: Metadata
            """;
    private KubelixServer server;
    private Kubectl kubectl;
    private Path work;
    private Path auditLog;

    @BeforeAll
    void start() throws Exception {
        work = KubelixServer.workDirectory("audit");
        Path policy = work.resolve("audit-policy.yaml");
        Files.writeString(policy, POLICY);
        auditLog = work.resolve("audit").resolve("audit.log");
        server = KubelixServer.start(Path.of(KubelixServer.property("kubelix.itest.distribution")), work,
                KubectlSuite.READY_TIMEOUT, "--audit-policy-file", policy.toString(), "--audit-log-path",
                auditLog.toString(), "--audit-log-maxsize", "1", "--audit-log-maxbackup", "1");
        kubectl = server.kubectl(work);
        server.awaitServed(kubectl, KubectlSuite.READY_TIMEOUT, "configmaps");
    }

    @AfterAll
    void stop() throws InterruptedException {
        if (server != null) {
            server.close();
        }
    }

    @Test
    @Order(1)
    void aCreateIsRecordedWhenReceivedAndWhenCompleteWithItsObjects() throws Exception {
        kubectl.ok("create", "configmap", "audited", "--from-literal=color=blue");
        // The name is in the body: RequestReceived's objectRef has none yet, as in kube.
        String auditID = awaitEvents(e -> e.path("verb").asText().equals("create")
                && e.path("objectRef").path("name").asText().equals("audited"), 1).get(0).path("auditID").asText();
        List<JsonNode> events = awaitEvents(e -> e.path("auditID").asText().equals(auditID), 2);
        JsonNode received = events.get(0);
        JsonNode complete = events.get(1);
        assertEquals("RequestReceived", received.path("stage").asText());
        assertEquals("ResponseComplete", complete.path("stage").asText());
        assertEquals(received.path("auditID").asText(), complete.path("auditID").asText());
        for (JsonNode e : events) {
            assertEquals("Event", e.path("kind").asText());
            assertEquals("audit.k8s.io/v1", e.path("apiVersion").asText());
            assertEquals("RequestResponse", e.path("level").asText());
            assertTrue(e.path("requestURI").asText().startsWith("/api/v1/namespaces/default/configmaps"), e.toString());
            assertTrue(e.path("user").path("groups").toString().contains("system:masters"), e.toString());
            assertEquals("127.0.0.1", e.path("sourceIPs").path(0).asText());
            assertTrue(e.path("userAgent").asText().startsWith("kubectl"), e.toString());
            assertTrue(e.path("requestReceivedTimestamp").asText().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{6}Z"));
        }
        assertEquals(received.path("requestReceivedTimestamp"), received.path("stageTimestamp"));
        assertFalse(received.has("responseStatus"));
        assertEquals("{\"resource\":\"configmaps\",\"namespace\":\"default\",\"apiVersion\":\"v1\"}",
                received.path("objectRef").toString());
        assertEquals("{\"resource\":\"configmaps\",\"namespace\":\"default\",\"name\":\"audited\",\"apiVersion\":\"v1\"}",
                complete.path("objectRef").toString());
        assertEquals("{\"metadata\":{},\"code\":201}", complete.path("responseStatus").toString());
        assertEquals("blue", complete.path("requestObject").path("data").path("color").asText());
        assertEquals("blue", complete.path("responseObject").path("data").path("color").asText());
        assertFalse(complete.path("responseObject").path("metadata").path("uid").asText("").isEmpty());
        assertFalse(complete.path("responseObject").path("metadata").has("managedFields"), "omitManagedFields");
        assertEquals("allow", complete.path("annotations").path("authorization.k8s.io/decision").asText());
        assertTrue(complete.path("annotations").has("authorization.k8s.io/reason"));
        assertTrue(Instant.parse(complete.path("stageTimestamp").asText())
                .compareTo(Instant.parse(complete.path("requestReceivedTimestamp").asText())) >= 0);

        kubectl.ok("get", "configmap", "audited", "-o", "json");
        JsonNode get = awaitEvents(e -> e.path("verb").asText().equals("get")
                && e.path("objectRef").path("name").asText().equals("audited")
                && e.path("stage").asText().equals("ResponseComplete"), 1).get(0);
        assertEquals("{\"metadata\":{},\"code\":200}", get.path("responseStatus").toString());
        assertEquals("blue", get.path("responseObject").path("data").path("color").asText());
        assertFalse(get.has("requestObject"));
    }

    @Test
    @Order(2)
    void aForbiddenRequestHasItsStatusTheImpersonatedUserAndTheDecision() throws Exception {
        Kubectl.Result r = kubectl.run("get", "secrets", "--as=mallory", "--as-group=tenants");
        assertEquals(1, r.exitCode(), r.toString());
        JsonNode e = awaitEvents(ev -> ev.path("verb").asText().equals("list")
                && ev.path("objectRef").path("resource").asText().equals("secrets")
                && ev.path("impersonatedUser").path("username").asText().equals("mallory"), 1).get(0);
        // The secrets rule omits RequestReceived.
        assertEquals("ResponseComplete", e.path("stage").asText());
        assertEquals("Metadata", e.path("level").asText());
        assertTrue(e.path("user").path("groups").toString().contains("system:masters"), "the user is who authenticated");
        assertEquals("[\"tenants\",\"system:authenticated\"]", e.path("impersonatedUser").path("groups").toString());
        JsonNode status = e.path("responseStatus");
        assertEquals(403, status.path("code").asInt());
        assertEquals("Failure", status.path("status").asText());
        assertEquals("Forbidden", status.path("reason").asText());
        assertEquals("secrets is forbidden: User \"mallory\" cannot list resource \"secrets\" in API group \"\" in the"
                + " namespace \"default\"", status.path("message").asText());
        assertEquals("secrets", status.path("details").path("kind").asText());
        assertEquals("forbid", e.path("annotations").path("authorization.k8s.io/decision").asText());
        assertFalse(e.has("responseObject"), "Metadata records no objects");
    }

    @Test
    @Order(3)
    void aWatchIsLongRunningReceivedStartedAndComplete() throws Exception {
        // kubectl lists, then watches until --request-timeout ends it.
        kubectl.run("get", "configmaps", "--watch", "--request-timeout=3s");
        List<JsonNode> events = awaitEvents(e -> e.path("verb").asText().equals("watch")
                && e.path("objectRef").path("resource").asText().equals("configmaps")
                && e.path("userAgent").asText().startsWith("kubectl"), 3);
        String auditID = events.get(0).path("auditID").asText();
        List<String> stages = events.stream().filter(e -> e.path("auditID").asText().equals(auditID))
                .map(e -> e.path("stage").asText()).toList();
        assertEquals(List.of("RequestReceived", "ResponseStarted", "ResponseComplete"), stages);
        assertEquals(200, events.get(1).path("responseStatus").path("code").asInt());
        assertTrue(events.get(0).path("requestURI").asText().contains("watch=true"), events.get(0).toString());
        assertEquals("RequestResponse", events.get(2).path("level").asText());
        Duration open = Duration.between(Instant.parse(events.get(1).path("stageTimestamp").asText()),
                Instant.parse(events.get(2).path("stageTimestamp").asText()));
        assertTrue(open.toMillis() >= 1000, "the watch stayed open: " + open);
    }

    @Test
    @Order(4)
    void aRequestThatFailsAuthenticationIsOneResponseStartedEvent() throws Exception {
        HttpResponse<String> r = server.get("/api/v1/namespaces/default/pods", "not-a-token");
        assertEquals(401, r.statusCode());
        String auditID = r.headers().firstValue("Audit-ID").orElseThrow();
        List<JsonNode> events = awaitEvents(e -> e.path("auditID").asText().equals(auditID), 1);
        Thread.sleep(300);
        events = events(e -> e.path("auditID").asText().equals(auditID));
        assertEquals(1, events.size(), events.toString());
        JsonNode e = events.get(0);
        assertEquals("ResponseStarted", e.path("stage").asText());
        assertEquals("{}", e.path("user").toString());
        assertEquals("list", e.path("verb").asText());
        assertEquals(401, e.path("responseStatus").path("code").asInt());
        assertEquals("Unauthorized", e.path("responseStatus").path("reason").asText());

        PrometheusScrape metrics = PrometheusScrape.parse(kubectl.ok("get", "--raw", "/metrics").stdout(), false);
        assertTrue(metrics.sum("apiserver_audit_event_total", Map.of()) >= 8);
        assertTrue(metrics.sum("apiserver_audit_level_total", Map.of("level", "RequestResponse")) >= 3);
        assertTrue(metrics.sum("apiserver_audit_level_total", Map.of("level", "None")) >= 1);
        assertEquals(0, metrics.sum("apiserver_audit_error_total", Map.of()));
    }

    @Test
    @Order(5)
    void theLogIsRotatedPastMaxSizeAndKeepsMaxBackupBackups() throws Exception {
        // Each create records its 300 KB configmap twice (request and response): 1 MB fills after two.
        Path big = work.resolve("big.txt");
        Files.writeString(big, "x".repeat(300 * 1024));
        for (int i = 0; i < 8; i++) {
            kubectl.ok("create", "configmap", "big-" + i, "--from-file=payload=" + big);
        }
        awaitEvents(e -> e.path("objectRef").path("name").asText().equals("big-7")
                && e.path("stage").asText().equals("ResponseComplete"), 1);
        List<Path> backups;
        try (Stream<Path> files = Files.list(auditLog.getParent())) {
            backups = files.filter(p -> !p.equals(auditLog)).toList();
        }
        assertEquals(1, backups.size(), "--audit-log-maxbackup=1 keeps one backup: " + backups);
        assertTrue(BACKUP.matcher(backups.get(0).getFileName().toString()).matches(), backups.toString());
        for (Path file : List.of(auditLog, backups.get(0))) {
            assertTrue(Files.size(file) <= 1024 * 1024, file + " is " + Files.size(file) + " bytes");
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                assertEquals("Event", JSON.readTree(line).path("kind").asText(), "every line is a whole event");
            }
        }
    }

    @Test
    @Order(6)
    void anInvalidPolicyStopsTheServerWithKubesMessage() throws Exception {
        Path other = KubelixServer.workDirectory("audit-invalid");
        Path policy = other.resolve("policy.yaml");
        Files.writeString(policy, "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- users: [a]\n");
        AssertionError e = assertThrows(AssertionError.class, () -> KubelixServer.start(
                Path.of(KubelixServer.property("kubelix.itest.distribution")), other, Duration.ofSeconds(60),
                "--audit-policy-file", policy.toString(), "--audit-log-path", "-"));
        assertTrue(e.getMessage().contains("kubelix exited with 1"), e.getMessage());
        assertTrue(e.getMessage().contains("loading audit policy file: rules[0].level: Required value: from file "
                + policy), e.getMessage());
    }

    /** Waits until at least {@code n} events match, in the order written (backup files first). */
    private List<JsonNode> awaitEvents(Predicate<JsonNode> match, int n) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        List<JsonNode> found = events(match);
        while (found.size() < n && System.nanoTime() < deadline) {
            Thread.sleep(100);
            found = events(match);
        }
        assertTrue(found.size() >= n, "expected " + n + " events, found " + found + "\nin " + auditLog);
        return found;
    }

    private List<JsonNode> events(Predicate<JsonNode> match) throws IOException {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> list = Files.list(auditLog.getParent())) {
            list.filter(p -> !p.equals(auditLog)).sorted().forEach(files::add);
        }
        files.add(auditLog);
        List<JsonNode> events = new ArrayList<>();
        for (Path f : files) {
            for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                JsonNode e;
                try {
                    e = JSON.readTree(line);
                } catch (IOException partial) {
                    continue; // the line being written
                }
                if (match.test(e)) {
                    events.add(e);
                }
            }
        }
        return events;
    }
}
