package io.kubelix.runtime.server.filters;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubelix.runtime.request.Requests;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WithTimeoutTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SLOW = "/api/v1/namespaces/default/configmaps/slow";
    private final CountDownLatch slowHandlerDone = new CountDownLatch(1);
    private FilterServer server;

    /** Answers after the time the request's {@code X-Test-Sleep} header says, in milliseconds. */
    private Handler sleeper() {
        return new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                String sleep = request.getHeaders().get("X-Test-Sleep");
                if (sleep != null) {
                    Thread.sleep(Long.parseLong(sleep));
                }
                response.setStatus(200);
                response.getHeaders().put("Content-Type", "text/plain");
                response.write(true, ByteBuffer.wrap(Requests.requestInfo(request).verb().getBytes(StandardCharsets.UTF_8)),
                        Callback.from(callback::succeeded, x -> {
                            slowHandlerDone.countDown();
                            callback.failed(x);
                        }));
                return true;
            }
        };
    }

    @BeforeEach
    void start() throws Exception {
        server = new FilterServer((next, metrics) -> new WithTimeout(next, Duration.ofMillis(300), metrics), sleeper());
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
    }

    @Test
    void aRequestPastTheTimeoutGetsKubes504AndWhatItsHandlerWritesLaterIsDropped() throws Exception {
        long began = System.nanoTime();
        HttpResponse<String> r = server.send("GET", SLOW, "X-Test-Sleep", "1500");
        long tookMillis = (System.nanoTime() - began) / 1_000_000;
        assertEquals(504, r.statusCode(), r.body());
        assertTrue(tookMillis < 1400, "answered at the timeout, not when the handler ended: " + tookMillis + " ms");
        JsonNode status = JSON.readTree(r.body());
        assertEquals("Status", status.path("kind").asText());
        assertEquals("Failure", status.path("status").asText());
        assertEquals("Timeout", status.path("reason").asText());
        assertEquals("Timeout: request did not complete within the allotted timeout", status.path("message").asText());
        assertEquals(504, status.path("code").asInt());
        assertTrue(slowHandlerDone.await(5, TimeUnit.SECONDS), "the handler's late write fails instead of reaching the client");
        assertTrue(server.scrape().contains("apiserver_request_terminations_total{code=\"504\",component=\"apiserver\","
                + "group=\"\",resource=\"configmaps\",scope=\"resource\",subresource=\"\",verb=\"GET\",version=\"v1\"} 1"),
                server.scrape());
    }

    @Test
    void requestsAnsweredInTimeAndWatchesAreLeftAlone() throws Exception {
        assertEquals("get", server.send("GET", SLOW, "X-Test-Sleep", "50").body());
        HttpResponse<String> watch = server.send("GET", "/api/v1/namespaces/default/configmaps?watch=true",
                "X-Test-Sleep", "700");
        assertEquals(200, watch.statusCode());
        assertEquals("watch", watch.body());
    }

    @Test
    void theClientMayAskForLessTimeButNotForMore() throws Exception {
        try (FilterServer patient = new FilterServer(
                (next, metrics) -> new WithTimeout(next, Duration.ofSeconds(30), metrics), sleeper())) {
            long began = System.nanoTime();
            HttpResponse<String> r = patient.send("GET", SLOW + "?timeout=100ms", "X-Test-Sleep", "1500");
            assertEquals(504, r.statusCode(), r.body());
            assertTrue((System.nanoTime() - began) / 1_000_000 < 1400, "answered at the client's 100 ms");
            assertEquals("Timeout", JSON.readTree(r.body()).path("reason").asText());
        }
        // 0 and a time past the server's mean the server's (here 300 ms, enough for 50 ms).
        assertEquals(200, server.send("GET", SLOW + "?timeout=0", "X-Test-Sleep", "50").statusCode());
        assertEquals(200, server.send("GET", SLOW + "?timeout=1h", "X-Test-Sleep", "50").statusCode());
        assertEquals(504, server.send("GET", SLOW + "?timeout=1h", "X-Test-Sleep", "1500").statusCode());
    }

    @Test
    void aTimeoutThatIsNotAGoDurationIsABadRequest() throws Exception {
        HttpResponse<String> r = server.send("GET", SLOW + "?timeout=5");
        assertEquals(400, r.statusCode(), r.body());
        JsonNode status = JSON.readTree(r.body());
        assertEquals("BadRequest", status.path("reason").asText());
        assertEquals("invalid timeout specified in the request URL - time: missing unit in duration \"5\"",
                status.path("message").asText());
    }
}
