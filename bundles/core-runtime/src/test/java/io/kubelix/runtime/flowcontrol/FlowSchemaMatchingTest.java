package io.kubelix.runtime.flowcontrol;

import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;
import io.kubelix.runtime.metrics.FlowControlMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Classification by kube's bootstrap FlowSchemas. */
class FlowSchemaMatchingTest {
    private final PriorityAndFairness apf = new PriorityAndFairness(600, Duration.ofSeconds(15),
            new FlowControlMetrics(new PrometheusRegistry()));

    static RequestInfo resource(String verb, String group, String namespace, String resource, String subresource) {
        return new RequestInfo(true, "/api", verb, "api", group, "v1", namespace, resource, subresource, "", List.of());
    }

    static RequestInfo nonResource(String verb, String path) {
        return new RequestInfo(false, path, verb, "", "", "", "", "", "", "", List.of());
    }

    static UserInfo user(String name, String... groups) {
        return new UserInfo(name, "", List.of(groups), Map.of());
    }

    private String classify(RequestInfo info, UserInfo user) {
        PriorityAndFairness.Classification c = apf.classify(new RequestDigest(info, user));
        return c.flowSchema() + "/" + c.priorityLevel() + "/" + c.distinguisher();
    }

    @Test
    void bootstrapSchemasClassifyAsKubes() {
        UserInfo admin = user("admin", "system:masters", "system:authenticated");
        UserInfo alice = user("alice", "system:authenticated");
        UserInfo sa = user("system:serviceaccount:team:builder", "system:serviceaccounts",
                "system:serviceaccounts:team", "system:authenticated");
        UserInfo kubeSystemSA = user("system:serviceaccount:kube-system:endpoint-controller", "system:serviceaccounts",
                "system:serviceaccounts:kube-system", "system:authenticated");
        UserInfo node = user("system:node:n1", "system:nodes", "system:authenticated");

        assertEquals("exempt/exempt/", classify(resource("list", "", "default", "pods", ""), admin));
        assertEquals("probes/exempt/", classify(nonResource("get", "/readyz"), alice));
        assertEquals("probes/exempt/", classify(nonResource("get", "/healthz/etcd"), alice), "a path below /healthz");
        assertEquals("global-default/global-default/alice", classify(nonResource("get", "/version"), alice));
        assertEquals("global-default/global-default/alice",
                classify(resource("list", "apps", "default", "deployments", ""), alice));
        assertEquals("service-accounts/workload-low/system:serviceaccount:team:builder",
                classify(resource("list", "", "team", "configmaps", ""), sa));
        assertEquals("endpoint-controller/workload-high/system:serviceaccount:kube-system:endpoint-controller",
                classify(resource("update", "", "default", "endpoints", ""), kubeSystemSA));
        assertEquals("kube-system-service-accounts/workload-high/default",
                classify(resource("list", "", "default", "pods", ""), kubeSystemSA), "ByNamespace");
        assertEquals("system-leader-election/leader-election/system:serviceaccount:kube-system:endpoint-controller",
                classify(resource("update", "coordination.k8s.io", "kube-system", "leases", ""), kubeSystemSA));
        assertEquals("system-leader-election/leader-election/system:serviceaccount:kube-system:endpoint-controller",
                classify(resource("update", "coordination.k8s.io", "team", "leases", ""), kubeSystemSA),
                "leases in any namespace");
        assertEquals("workload-leader-election/leader-election/system:serviceaccount:kube-system:builder",
                classify(resource("update", "", "team", "configmaps", ""),
                        user("system:serviceaccount:kube-system:builder", "system:serviceaccounts",
                                "system:serviceaccounts:kube-system", "system:authenticated")),
                "a configmap lock");
        assertEquals("system-node-high/node-high/system:node:n1",
                classify(resource("patch", "", "", "nodes", "status"), node), "a subresource is resource/subresource");
        assertEquals("system-nodes/system/system:node:n1", classify(resource("get", "", "", "pods", ""), node));
        assertEquals("system-leader-election/leader-election/system:kube-scheduler",
                classify(resource("get", "coordination.k8s.io", "kube-system", "leases", ""),
                        user("system:kube-scheduler", "system:authenticated")));
        assertEquals("global-default/global-default/system:anonymous",
                classify(resource("get", "", "", "namespaces", ""), user("system:anonymous", "system:unauthenticated")));
    }

    @Test
    void matchingPrecedenceThenNameOrderTheSchemasAndDanglingOnesAreSkipped() {
        var alice = user("alice", "system:authenticated");
        var low = BootstrapConfiguration.flowSchemas().stream()
                .filter(fs -> fs.path("metadata").path("name").asText().equals("global-default")).findFirst()
                .orElseThrow();
        var b = low.deepCopy();
        b.with("metadata").put("name", "b-alice").put("uid", "uid-b");
        b.with("spec").put("matchingPrecedence", 50);
        var a = b.deepCopy();
        a.with("metadata").put("name", "a-alice").put("uid", "uid-a");
        var dangling = b.deepCopy();
        dangling.with("metadata").put("name", "0-dangling");
        dangling.with("spec").with("priorityLevelConfiguration").put("name", "missing");
        dangling.with("spec").put("matchingPrecedence", 10);

        apf.apply(List.of(b, a, dangling), BootstrapConfiguration.priorityLevels());
        PriorityAndFairness.Classification c = apf.classify(new RequestDigest(resource("get", "", "", "pods", ""), alice));
        assertEquals("a-alice", c.flowSchema());
        assertEquals("uid-a", c.flowSchemaUID());

        // Without any stored schema, the mandatory ones stand in.
        apf.apply(List.of(), List.of());
        assertEquals("catch-all/catch-all/alice", classify(resource("get", "", "", "pods", ""), alice));
        assertEquals("catch-all/catch-all/alice", classify(nonResource("get", "/readyz"), alice),
                "probes is a suggested schema, not a mandatory one");
    }

    @Test
    void nominalLimitsShareTheServerLimitByShares() {
        Map<String, Integer> limits = PriorityAndFairness.nominalConcurrencyLimits(600,
                BootstrapConfiguration.priorityLevels());
        // Shares: exempt 0, catch-all 5, system 30, node-high 40, leader-election 10, workload-high 40,
        // workload-low 100, global-default 20: 245 in all.
        assertEquals(0, limits.get("exempt"));
        assertEquals(13, limits.get("catch-all"));
        assertEquals(245, limits.get("workload-low"));
        assertEquals(49, limits.get("global-default"));
        assertEquals(74, limits.get("system"));
    }
}
