package io.kubelix.runtime.audit;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubelix.api.request.UserInfo;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The json and legacy lines of kube's log backend. */
class EventFormatTest {
    private static final Instant RECEIVED = Instant.parse("2026-11-25T05:00:00.123456789Z");
    private static final Instant STAGE = Instant.parse("2026-11-25T05:00:00.200000Z");

    @Test
    void jsonIsKubesEventWithItsFieldOrderOmissionsAndMicroseconds() throws Exception {
        Event ev = new Event(Level.RequestResponse, "6f2b", Stage.ResponseComplete,
                "/api/v1/namespaces/default/configmaps?fieldManager=kubectl-create", "create",
                new UserInfo("admin", "", List.of("system:masters", "system:authenticated"), Map.of("scopes", List.of("a"))),
                null, List.of("127.0.0.1"), "kubectl/v1.33.0",
                new Event.ObjectReference("configmaps", "default", "cm", "", "", "v1", "", ""),
                Event.ResponseStatus.ofCode(201), "{\"kind\":\"ConfigMap\"}".getBytes(StandardCharsets.UTF_8),
                "{\"kind\":\"ConfigMap\",\"x\":1}".getBytes(StandardCharsets.UTF_8), RECEIVED, STAGE,
                Map.of("authorization.k8s.io/reason", "", "authorization.k8s.io/decision", "allow"));
        String line = new String(EventFormat.json.line(ev), StandardCharsets.UTF_8);
        assertEquals("{\"kind\":\"Event\",\"apiVersion\":\"audit.k8s.io/v1\",\"level\":\"RequestResponse\","
                + "\"auditID\":\"6f2b\",\"stage\":\"ResponseComplete\","
                + "\"requestURI\":\"/api/v1/namespaces/default/configmaps?fieldManager=kubectl-create\",\"verb\":\"create\","
                + "\"user\":{\"username\":\"admin\",\"groups\":[\"system:masters\",\"system:authenticated\"],"
                + "\"extra\":{\"scopes\":[\"a\"]}},\"sourceIPs\":[\"127.0.0.1\"],\"userAgent\":\"kubectl/v1.33.0\","
                + "\"objectRef\":{\"resource\":\"configmaps\",\"namespace\":\"default\",\"name\":\"cm\",\"apiVersion\":\"v1\"},"
                + "\"responseStatus\":{\"metadata\":{},\"code\":201},\"requestObject\":{\"kind\":\"ConfigMap\"},"
                + "\"responseObject\":{\"kind\":\"ConfigMap\",\"x\":1},"
                + "\"requestReceivedTimestamp\":\"2026-11-25T05:00:00.123456Z\","
                + "\"stageTimestamp\":\"2026-11-25T05:00:00.200000Z\","
                + "\"annotations\":{\"authorization.k8s.io/decision\":\"allow\",\"authorization.k8s.io/reason\":\"\"}}\n",
                line);
        new ObjectMapper().readTree(line);
    }

    @Test
    void aFailureHasItsStatusAndAnUnknownUserIsEmpty() {
        Event ev = new Event(Level.Metadata, "id", Stage.ResponseStarted, "/api", "get", null, null,
                List.of("10.0.0.1", "127.0.0.1"), "", null, new Event.ResponseStatus("Failure", "Unauthorized",
                "Unauthorized", null, 401), null, null, RECEIVED, STAGE, Map.of());
        String line = new String(EventFormat.json.line(ev), StandardCharsets.UTF_8);
        assertEquals("{\"kind\":\"Event\",\"apiVersion\":\"audit.k8s.io/v1\",\"level\":\"Metadata\",\"auditID\":\"id\","
                + "\"stage\":\"ResponseStarted\",\"requestURI\":\"/api\",\"verb\":\"get\",\"user\":{},"
                + "\"sourceIPs\":[\"10.0.0.1\",\"127.0.0.1\"],\"responseStatus\":{\"metadata\":{},\"status\":\"Failure\","
                + "\"message\":\"Unauthorized\",\"reason\":\"Unauthorized\",\"code\":401},"
                + "\"requestReceivedTimestamp\":\"2026-11-25T05:00:00.123456Z\","
                + "\"stageTimestamp\":\"2026-11-25T05:00:00.200000Z\"}\n", line);
    }

    @Test
    void legacyIsKubesOneLineText() {
        Event ev = new Event(Level.Metadata, "id-1", Stage.RequestReceived, "/api/v1/namespaces/a/pods", "list",
                new UserInfo("alice", "", List.of("devs", "system:authenticated"), Map.of()),
                new UserInfo("bob", "", List.of("system:authenticated"), Map.of()), List.of("127.0.0.1"), "curl \"x\"",
                new Event.ObjectReference("pods", "a", "", "", "", "v1", "", ""), null, null, null, RECEIVED,
                RECEIVED, Map.of());
        assertEquals("2026-11-25T05:00:00.123456789Z AUDIT: id=\"id-1\" stage=\"RequestReceived\" ip=\"127.0.0.1\""
                + " method=\"list\" user=\"alice\" groups=\"\\\"devs\\\",\\\"system:authenticated\\\"\" as=\"bob\""
                + " asgroups=\"\\\"system:authenticated\\\"\" user-agent=\"curl \\\"x\\\"\" namespace=\"a\""
                + " uri=\"/api/v1/namespaces/a/pods\" response=\"<deferred>\"\n",
                new String(EventFormat.legacy.line(ev), StandardCharsets.UTF_8));
        assertEquals("2026-11-25T05:00:00Z", EventFormat.rfc3339Nano(Instant.parse("2026-11-25T05:00:00Z")));
        assertEquals("2026-11-25T05:00:00.2Z", EventFormat.rfc3339Nano(STAGE));
    }

    @Test
    void microTimeIsTheFormattersTextForEveryInstant() {
        java.util.Random random = new java.util.Random(42);
        for (int i = 0; i < 10_000; i++) {
            java.time.Instant t = java.time.Instant.ofEpochSecond(random.nextLong(-62_000_000_000L, 253_402_300_799L),
                    random.nextInt(1_000_000_000));
            assertEquals(EventFormat.MICRO_TIME.format(t), EventFormat.microTime(t), t.toString());
        }
        java.time.Instant beyond = java.time.Instant.parse("+10000-01-01T00:00:00.000001Z");
        assertEquals(EventFormat.MICRO_TIME.format(beyond), EventFormat.microTime(beyond));
    }
}
