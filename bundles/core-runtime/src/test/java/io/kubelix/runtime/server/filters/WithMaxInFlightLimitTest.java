package io.kubelix.runtime.server.filters;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WithMaxInFlightLimitTest {
    private static final String CONFIGMAPS = "/api/v1/namespaces/default/configmaps";
    private final HoldingHandler holder = new HoldingHandler();
    private FilterServer server;

    @BeforeEach
    void start() throws Exception {
        server = new FilterServer((next, metrics) -> new WithMaxInFlightLimit(next, 1, 1, metrics,
                new io.kubelix.runtime.metrics.InflightWatermark(), new io.kubelix.runtime.metrics.InflightWatermark()),
                holder);
    }

    @AfterEach
    void stop() throws Exception {
        holder.release.countDown();
        server.close();
    }

    @Test
    void beyondTheLimitKubes429WithRetryAfterUntilASeatIsFree() throws Exception {
        // A thread of its own: a blocking send on the common pool can starve the HTTP client's own stages.
        java.util.concurrent.ExecutorService thread = java.util.concurrent.Executors.newSingleThreadExecutor();
        java.util.concurrent.Future<HttpResponse<String>> first = thread.submit(
                () -> server.send("GET", CONFIGMAPS + "/a", "X-Test-Hold", "1"));
        thread.shutdown();
        assertTrue(holder.held.await(10, TimeUnit.SECONDS));

        HttpResponse<String> refused = server.send("GET", CONFIGMAPS);
        assertEquals(429, refused.statusCode());
        assertEquals("1", refused.headers().firstValue("Retry-After").orElse(""));
        assertEquals("Too many requests, please try again later.\n", refused.body());
        assertTrue(refused.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"));

        assertEquals(200, server.send("POST", CONFIGMAPS).statusCode(), "writes have seats of their own");
        assertEquals(200, server.send("GET", CONFIGMAPS + "?watch=true").statusCode(), "watches are not limited");
        assertEquals(200, server.send("GET", CONFIGMAPS, "X-Test-User", "admin", "X-Test-Groups",
                "system:masters,system:authenticated").statusCode(), "system:masters is never refused");

        String scrape = server.scrape();
        assertTrue(scrape.contains("apiserver_request_total{code=\"429\",component=\"apiserver\",dry_run=\"\",group=\"\","
                + "resource=\"configmaps\",scope=\"namespace\",subresource=\"\",verb=\"LIST\",version=\"v1\"} 1"), scrape);
        assertTrue(scrape.contains("apiserver_request_terminations_total{code=\"429\""), scrape);

        holder.release.countDown();
        assertEquals(200, first.get(10, TimeUnit.SECONDS).statusCode());
        assertEquals(200, server.send("GET", CONFIGMAPS).statusCode(), "the seat is free again");
    }
}
