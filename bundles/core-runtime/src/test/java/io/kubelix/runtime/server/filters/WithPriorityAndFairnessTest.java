package io.kubelix.runtime.server.filters;

import io.kubelix.runtime.flowcontrol.PriorityAndFairness;
import io.kubelix.runtime.metrics.ServerMetrics;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WithPriorityAndFairnessTest {
    private static final String CONFIGMAPS = "/api/v1/namespaces/default/configmaps";
    private final HoldingHandler holder = new HoldingHandler();
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private FilterServer server;

    private final ServerMetrics serverMetrics = new ServerMetrics();

    /**
     * A server of 1 + 1 seats: each Limited level gets one (ceil of 2 * shares / 245); requests wait
     * at most {@code wait} in a queue.
     */
    private void start(Duration wait) throws Exception {
        PriorityAndFairness apf = new PriorityAndFairness(2, wait, serverMetrics.flowControl());
        server = new FilterServer((next, metrics) -> new WithPriorityAndFairness(next, apf, metrics), holder);
    }

    @AfterEach
    void stop() throws Exception {
        holder.release.countDown();
        threads.shutdownNow();
        if (server != null) {
            server.close();
        }
    }

    private Future<HttpResponse<String>> holdASeat(String user, String groups) throws Exception {
        Future<HttpResponse<String>> first = threads.submit(() -> server.send("GET", CONFIGMAPS + "/a",
                "X-Test-Hold", "1", "X-Test-User", user, "X-Test-Groups", groups));
        assertTrue(holder.held.await(10, TimeUnit.SECONDS));
        return first;
    }

    @Test
    void aFullLevelAnswers429WhileOtherLevelsAndExemptUsersAreServed() throws Exception {
        start(Duration.ofMillis(200));
        // alice is global-default's only flow; her held request takes its one seat.
        Future<HttpResponse<String>> first = holdASeat("alice", "system:authenticated");

        HttpResponse<String> refused = server.send("GET", CONFIGMAPS, "X-Test-User", "alice",
                "X-Test-Groups", "system:authenticated");
        assertEquals(429, refused.statusCode(), "waited past the wait limit");
        assertEquals("1", refused.headers().firstValue("Retry-After").orElse(""));
        assertEquals("Too many requests, please try again later.\n", refused.body());
        assertFalse(refused.headers().firstValue(WithPriorityAndFairness.FLOW_SCHEMA_UID).orElse("").isEmpty());

        HttpResponse<String> sa = server.send("GET", CONFIGMAPS, "X-Test-User", "system:serviceaccount:default:x",
                "X-Test-Groups", "system:serviceaccounts,system:authenticated");
        assertEquals(200, sa.statusCode(), "service accounts have a level of their own");
        assertEquals(200, server.send("GET", CONFIGMAPS, "X-Test-User", "admin", "X-Test-Groups",
                "system:masters,system:authenticated").statusCode(), "system:masters is exempt");
        assertEquals(429, server.send("GET", CONFIGMAPS + "?watch=true", "X-Test-User", "alice",
                "X-Test-Groups", "system:authenticated").statusCode(), "a watch needs a seat to be set up");
        assertEquals(200, server.send("GET", "/api/v1/namespaces/default/pods/p/exec", "X-Test-User", "alice",
                "X-Test-Groups", "system:authenticated").statusCode(), "connections are not counted");

        String scrape = server.scrape() + scrapeFlowControl();
        assertTrue(scrape.contains("apiserver_flowcontrol_rejected_requests_total{flow_schema=\"global-default\","
                + "priority_level=\"global-default\",reason=\"time-out\"} 2.0"), scrape);
        assertTrue(scrape.contains("apiserver_flowcontrol_nominal_limit_seats{priority_level=\"workload-low\"} 1.0"),
                scrape);
        assertTrue(scrape.contains("apiserver_request_terminations_total{code=\"429\""), scrape);

        holder.release.countDown();
        HttpResponse<String> served = first.get(10, TimeUnit.SECONDS);
        assertEquals(200, served.statusCode());
        assertEquals(uuid("FlowSchema/global-default"),
                served.headers().firstValue(WithPriorityAndFairness.FLOW_SCHEMA_UID).orElse(""));
        assertEquals(uuid("PriorityLevelConfiguration/global-default"),
                served.headers().firstValue(WithPriorityAndFairness.PRIORITY_LEVEL_UID).orElse(""));
        assertEquals(200, server.send("GET", CONFIGMAPS, "X-Test-User", "alice",
                "X-Test-Groups", "system:authenticated").statusCode(), "the seat is free again");
    }

    @Test
    void aRequestQueuedForAFreeSeatIsServedOnceItIsFree() throws Exception {
        start(Duration.ofSeconds(20));
        Future<HttpResponse<String>> first = holdASeat("alice", "system:authenticated");
        Future<HttpResponse<String>> queued = threads.submit(() -> server.send("GET", CONFIGMAPS,
                "X-Test-User", "bob", "X-Test-Groups", "system:authenticated"));
        Future<HttpResponse<String>> failing = threads.submit(() -> server.send("GET", CONFIGMAPS,
                "X-Test-User", "carol", "X-Test-Groups", "system:authenticated", "X-Test-Fail", "1"));
        Thread.sleep(200);
        assertFalse(queued.isDone(), "bob waits in global-default's queues");
        assertFalse(failing.isDone(), "so does carol");
        holder.release.countDown();
        assertEquals(200, first.get(10, TimeUnit.SECONDS).statusCode());
        assertEquals(200, queued.get(10, TimeUnit.SECONDS).statusCode());
        HttpResponse<String> failed = failing.get(10, TimeUnit.SECONDS);
        assertEquals(404, failed.statusCode(), "a resumed request's failure is still a Status");
        assertTrue(failed.body().contains("gone meanwhile"), failed.body());
    }

    private String scrapeFlowControl() throws Exception {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter.create()
                .write(out, serverMetrics.registry().scrape());
        return out.toString(java.nio.charset.StandardCharsets.UTF_8);
    }

    private static String uuid(String s) {
        return java.util.UUID.nameUUIDFromBytes(s.getBytes(java.nio.charset.StandardCharsets.UTF_8)).toString();
    }
}
