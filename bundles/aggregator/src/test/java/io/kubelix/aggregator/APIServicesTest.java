package io.kubelix.aggregator;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubelix.api.server.DiscoverySource;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class APIServicesTest {

    @Test
    void anAPIServiceGivesDiscoveryItsGroupVersionsPriorities() throws Exception {
        assertEquals(new DiscoverySource.Priority("metrics.k8s.io", "v1beta1", 100, 100),
                APIServices.priority(new ObjectMapper().readTree("""
                        {"metadata":{"name":"v1beta1.metrics.k8s.io"},"spec":{"group":"metrics.k8s.io","version":"v1beta1",
                         "groupPriorityMinimum":100,"versionPriority":100,"service":{"namespace":"kube-system","name":"m"}}}""")));
        assertEquals(new DiscoverySource.Priority("", "v1", 18000, 1), APIServices.priority(new ObjectMapper().readTree("""
                {"metadata":{"name":"v1."},"spec":{"version":"v1","groupPriorityMinimum":18000,"versionPriority":1}}""")));
    }
}
