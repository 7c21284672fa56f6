package io.kubelix.runtime.flowcontrol;

import io.kubelix.runtime.metrics.FlowControlMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** How long a request may wait in its queue, as kube's getRequestWaitContext decides it. */
class RequestWaitLimitTest {
    private final PriorityAndFairness apf = new PriorityAndFairness(10, Duration.ofSeconds(15),
            new FlowControlMetrics(new PrometheusRegistry()));

    @Test
    void aQuarterOfTheRequestsOwnTimeAtMostAMinute() {
        assertEquals(Duration.ofSeconds(15), apf.requestWaitLimit(Duration.ofSeconds(60)));
        assertEquals(Duration.ofMillis(500), apf.requestWaitLimit(Duration.ofSeconds(2)), "kubectl --request-timeout=2s");
        assertEquals(Duration.ofMinutes(1), apf.requestWaitLimit(Duration.ofMinutes(10)));
    }

    @Test
    void theDefaultForARequestWithNoDeadline() {
        assertEquals(Duration.ofSeconds(15), apf.requestWaitLimit(null));
    }
}
