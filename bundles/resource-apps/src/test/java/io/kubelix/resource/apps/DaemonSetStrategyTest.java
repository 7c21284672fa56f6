package io.kubelix.resource.apps;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.kubelix.resource.apps.Fixtures.create;
import static io.kubelix.resource.apps.Fixtures.json;
import static io.kubelix.resource.apps.Fixtures.workload;
import static org.junit.jupiter.api.Assertions.assertEquals;

class DaemonSetStrategyTest {
    private final WorkloadStrategy strategy = WorkloadStrategy.daemonSet();

    private static ObjectNode daemonSet() {
        ObjectNode d = workload("DaemonSet", "agent");
        ((ObjectNode) d.path("spec")).remove(List.of("replicas", "strategy"));
        return d;
    }

    @Test
    void defaultsAsKube() {
        ObjectNode d = daemonSet();

        assertEquals(List.of(), create(strategy, d));

        JsonNode spec = d.path("spec");
        assertEquals("{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxUnavailable\":1,\"maxSurge\":0}}",
                spec.path("updateStrategy").toString());
        assertEquals(10, spec.path("revisionHistoryLimit").asInt());
        assertEquals("{\"currentNumberScheduled\":0,\"numberMisscheduled\":0,\"desiredNumberScheduled\":0,\"numberReady\":0}",
                d.path("status").toString());
    }

    @Test
    void exactlyOneOfMaxUnavailableAndMaxSurge() {
        ObjectNode both = daemonSet();
        ((ObjectNode) both.path("spec")).set("updateStrategy", json("{'type':'RollingUpdate','rollingUpdate':"
                + "{'maxUnavailable':1,'maxSurge':'10%'}}"));
        assertEquals(List.of("spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:1, "
                + "IntVal:0, StrVal:\"10%\"}: may not be set when maxUnavailable is non-zero"), create(strategy, both));

        ObjectNode none = daemonSet();
        ((ObjectNode) none.path("spec")).set("updateStrategy", json("{'type':'RollingUpdate','rollingUpdate':"
                + "{'maxUnavailable':'0%','maxSurge':0}}"));
        assertEquals(List.of("spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge "
                + "is 0"), create(strategy, none));
    }

    @Test
    void aMissingSelectorMatchesNoTemplate() {
        ObjectNode d = daemonSet();
        ((ObjectNode) d.path("spec")).remove("selector");

        assertEquals(List.of("spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"agent\"}: "
                + "`selector` does not match template `labels`"), create(strategy, d));
    }

    @Test
    void badPercentsAndPorts() {
        ObjectNode d = daemonSet();
        ((ObjectNode) d.path("spec")).set("updateStrategy", json("{'type':'RollingUpdate','rollingUpdate':"
                + "{'maxUnavailable':'150%'}}"));
        ((ObjectNode) d.path("spec").path("template").path("spec").path("containers").get(0))
                .set("ports", json("{'p':[{'containerPort':0},{'containerPort':8080,'hostPort':99999}]}").get("p"));

        assertEquals(List.of("spec.template.spec.containers[0].ports[0].containerPort: Required value",
                "spec.template.spec.containers[0].ports[1].hostPort: Invalid value: 99999: must be between 1 and 65535, "
                        + "inclusive",
                "spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, "
                        + "StrVal:\"150%\"}: must not be greater than 100%"), create(strategy, d));
    }
}
