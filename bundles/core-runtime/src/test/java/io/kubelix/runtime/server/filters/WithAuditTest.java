package io.kubelix.runtime.server.filters;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.request.UserInfo;
import io.kubelix.runtime.audit.AuditBackend;
import io.kubelix.runtime.audit.AuditContext;
import io.kubelix.runtime.audit.AuditOptions;
import io.kubelix.runtime.audit.Event;
import io.kubelix.runtime.audit.EventFormat;
import io.kubelix.runtime.audit.PolicyReader;
import io.kubelix.runtime.audit.PolicyRuleEvaluator;
import io.kubelix.runtime.audit.Stage;
import io.kubelix.runtime.endpoints.responsewriters.Responses;
import io.kubelix.runtime.metrics.AuditMetrics;
import io.kubelix.runtime.metrics.ServerMetrics;
import io.kubelix.runtime.request.Requests;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The audit filter over real HTTP, with a policy and a backend that keeps what it is sent. */
class WithAuditTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String POLICY = """
            apiVersion: audit.k8s.io/v1
            kind: Policy
            rules:
            - level: None
              users: [quiet]
            - level: RequestResponse
              resources: [{group: "", resources: [configmaps]}]
              omitManagedFields: true
            - level: Metadata
              omitStages: [RequestReceived]
              nonResourceURLs: ["/healthz*"]
            - level: Metadata
            """;

    private final List<Event> events = new CopyOnWriteArrayList<>();
    private final ServerMetrics serverMetrics = new ServerMetrics();
    private final HttpClient client = HttpClient.newHttpClient();
    private Server server;
    private URI base;

    /** Answers by path: objects, a thrown Status, a watch's stream, a failure. */
    private final Handler handler = new Handler.Abstract() {
        @Override
        public boolean handle(Request request, Response response, Callback callback) throws Exception {
            String path = Request.getPathInContext(request);
            AuditContext.addAnnotation(request, "test/handled", "yes");
            if (path.endsWith("/forbidden")) {
                throw new StatusException(io.kubelix.api.errors.StatusReason.FORBIDDEN, 403, "no you may not", null, null);
            }
            if (path.endsWith("/broken")) {
                throw new IllegalStateException("broken handler");
            }
            if (request.getMethod().equals("POST")) {
                ObjectNode body = (ObjectNode) JSON.readTree(Request.asInputStream(request));
                AuditContext.logRequestObject(request, body);
                body.with("metadata").put("uid", "u-1").putArray("managedFields").addObject().put("manager", "m");
                Responses.writeObject(request, response, callback, 201, body);
                return true;
            }
            if ("true".equals(Request.extractQueryParameters(request).getValue("watch"))) {
                response.setStatus(200);
                response.write(false, ByteBuffer.wrap("{\"type\":\"ADDED\"}\n".getBytes(StandardCharsets.UTF_8)),
                        Callback.from(() -> {
                            try {
                                Thread.sleep(200);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                            response.write(true, null, callback);
                        }, callback::failed));
                return true;
            }
            ObjectNode obj = JSON.createObjectNode().put("kind", "ConfigMap").put("apiVersion", "v1");
            obj.putObject("metadata").put("name", "a");
            Responses.writeObject(request, response, callback, 200, obj);
            return true;
        }
    };

    @BeforeEach
    void start() throws Exception {
        AuditBackend collecting = new AuditBackend() {
            @Override
            public boolean processEvents(List<Event> batch) {
                events.addAll(batch);
                return true;
            }

            @Override
            public void shutdown() {
            }
        };
        AuditOptions.Audit audit = new AuditOptions.Audit(new PolicyRuleEvaluator(PolicyReader.parse(
                POLICY.getBytes(StandardCharsets.UTF_8))), collecting, new AuditMetrics(serverMetrics));
        server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        Handler user = new Handler.Wrapper(new WithAudit(handler, audit)) {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                String name = request.getHeaders().get("X-Test-User");
                Requests.setUser(request, new UserInfo(name, "", List.of("system:authenticated"), Map.of()));
                return super.handle(request, response, callback);
            }
        };
        server.setHandler(new WithAuditInit(new WithPanicRecovery(new WithRequestInfo(user))));
        server.start();
        base = URI.create("http://127.0.0.1:" + connector.getLocalPort());
    }

    @AfterEach
    void stop() throws Exception {
        server.stop();
    }

    @Test
    void aRequestIsRecordedWhenReceivedAndWhenCompleteWithItsObjectsAtRequestResponse() throws Exception {
        HttpResponse<String> r = send("POST", "/api/v1/namespaces/default/configmaps?fieldManager=x", "alice",
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"cm\"}}");
        assertEquals(201, r.statusCode());
        String auditID = r.headers().firstValue("Audit-ID").orElseThrow();
        awaitEvents(2);
        Event received = events.get(0);
        Event complete = events.get(1);
        assertEquals(Stage.RequestReceived, received.stage());
        assertEquals(Stage.ResponseComplete, complete.stage());
        assertEquals(auditID, received.auditID());
        assertEquals(received.requestReceivedTimestamp(), received.stageTimestamp());
        assertNull(received.responseStatus());
        JsonNode line = JSON.readTree(EventFormat.json.line(complete));
        assertEquals("RequestResponse", line.path("level").asText());
        assertEquals("create", line.path("verb").asText());
        assertEquals("/api/v1/namespaces/default/configmaps?fieldManager=x", line.path("requestURI").asText());
        assertEquals("alice", line.path("user").path("username").asText());
        assertEquals("127.0.0.1", line.path("sourceIPs").path(0).asText());
        assertEquals("{\"resource\":\"configmaps\",\"namespace\":\"default\",\"name\":\"cm\",\"apiVersion\":\"v1\"}",
                line.path("objectRef").toString());
        assertEquals("{\"metadata\":{},\"code\":201}", line.path("responseStatus").toString());
        assertEquals("cm", line.path("requestObject").path("metadata").path("name").asText());
        assertEquals("u-1", line.path("responseObject").path("metadata").path("uid").asText());
        assertFalse(line.path("responseObject").path("metadata").has("managedFields"), "omitManagedFields");
        assertEquals("yes", line.path("annotations").path("test/handled").asText());
    }

    @Test
    void aThrownStatusIsAnsweredInsideSoTheEventHasIt() throws Exception {
        HttpResponse<String> r = send("GET", "/api/v1/namespaces/default/pods/forbidden", "alice", null);
        assertEquals(403, r.statusCode());
        awaitEvents(2);
        JsonNode status = JSON.readTree(EventFormat.json.line(events.get(1))).path("responseStatus");
        assertEquals("{\"metadata\":{},\"status\":\"Failure\",\"message\":\"no you may not\",\"reason\":\"Forbidden\","
                + "\"code\":403}", status.toString());
        assertEquals("Metadata", events.get(1).level().name());
        assertNull(events.get(1).responseObject());
    }

    @Test
    void aWatchIsLongRunningAndGetsResponseStarted() throws Exception {
        HttpResponse<String> r = send("GET", "/api/v1/namespaces/default/pods?watch=true", "alice", null);
        assertEquals(200, r.statusCode());
        awaitEvents(3);
        assertEquals(List.of(Stage.RequestReceived, Stage.ResponseStarted, Stage.ResponseComplete),
                events.stream().map(Event::stage).toList());
        assertEquals(200, events.get(1).responseStatus().code());
        assertTrue(events.get(2).stageTimestamp().isAfter(events.get(1).stageTimestamp()));
        assertEquals("watch", events.get(0).verb());
    }

    @Test
    void omittedStagesNoneLevelAndPanics() throws Exception {
        send("GET", "/healthz", "alice", null);
        awaitEvents(1);
        assertEquals(Stage.ResponseComplete, events.get(0).stage(), "RequestReceived is omitted for /healthz");
        assertEquals("get", events.get(0).verb());
        assertNull(events.get(0).objectRef());
        events.clear();
        HttpResponse<String> quiet = send("GET", "/api/v1/namespaces/default/pods/a", "quiet", null);
        assertNotNull(quiet.headers().firstValue("Audit-ID").orElse(null), "every response has an Audit-ID");
        Thread.sleep(100);
        assertTrue(events.isEmpty(), events.toString());
        HttpResponse<String> broken = send("GET", "/api/v1/namespaces/default/pods/broken", "alice", null);
        assertEquals(500, broken.statusCode());
        awaitEvents(2);
        assertEquals(Stage.Panic, events.get(1).stage());
        assertEquals("APIServer panic'd: java.lang.IllegalStateException: broken handler",
                events.get(1).responseStatus().message());
    }

    @Test
    void aClientsAuditIDIsKept() throws Exception {
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(base.resolve("/api/v1/namespaces/default/pods/a"))
                .header("X-Test-User", "alice").header("Audit-ID", "my-id").build(), HttpResponse.BodyHandlers.ofString());
        assertEquals("my-id", r.headers().firstValue("Audit-ID").orElseThrow());
        awaitEvents(2);
        assertEquals("my-id", events.get(0).auditID());
    }

    private HttpResponse<String> send(String method, String path, String user, String body) throws Exception {
        return client.send(HttpRequest.newBuilder(base.resolve(path)).header("X-Test-User", user)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private void awaitEvents(int n) throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (events.size() < n && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertTrue(events.size() >= n, "events: " + events);
    }
}
