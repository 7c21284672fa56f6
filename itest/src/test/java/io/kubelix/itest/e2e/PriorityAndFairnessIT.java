package io.kubelix.itest.e2e;

import io.kubelix.itest.e2e.Kubectl.Result;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * API Priority and Fairness in the built distribution, with 4 + 2 seats to share: kube's bootstrap
 * FlowSchemas and priority levels are in storage, responses name their schema and level in the
 * {@code X-Kubernetes-PF-*} headers, a flood of LISTs from one service account (level workload-low)
 * does not keep another user's {@code kubectl get} (level global-default) from its answer, a
 * FlowSchema naming a missing level is Dangling, and the debug dumps and metrics show the levels.
 */
class PriorityAndFairnessIT extends KubectlSuite {
    private static final List<String> FLOW_SCHEMAS = List.of("exempt", "probes", "system-leader-election",
            "endpoint-controller", "workload-leader-election", "system-node-high", "system-nodes",
            "kube-controller-manager", "kube-scheduler", "kube-system-service-accounts", "service-accounts",
            "global-default", "catch-all");
    private static final List<String> PRIORITY_LEVELS = List.of("catch-all", "exempt", "global-default",
            "leader-election", "node-high", "system", "workload-high", "workload-low");
    private static final String CONFIGMAPS = "/api/v1/namespaces/default/configmaps";

    PriorityAndFairnessIT() {
        super("priority-and-fairness", "flowschemas,prioritylevelconfigurations");
    }

    @Override
    String[] flags() {
        return new String[] {"--max-requests-inflight", "4", "--max-mutating-requests-inflight", "2"};
    }

    @Override
    void afterStart() throws Exception {
        kubectl.ok("create", "serviceaccount", "flooder");
        kubectl.ok("create", "clusterrole", "configmap-reader", "--verb=get,list", "--resource=configmaps");
        kubectl.ok("create", "clusterrolebinding", "configmap-readers", "--clusterrole=configmap-reader",
                "--serviceaccount=default:flooder", "--user=alice");
        // Lists of about half a megabyte, so that a flood of them keeps its level's seats busy.
        StringBuilder list = new StringBuilder("apiVersion: v1\nkind: List\nitems:\n");
        String value = "x".repeat(10_000);
        for (int i = 0; i < 50; i++) {
            list.append("- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: cm-").append(i)
                    .append("\n  data:\n    value: ").append(value).append('\n');
        }
        kubectl.ok("apply", "-f", write("configmaps.yaml", list.toString()).toString());
    }

    @Test
    void kubectlListsKubesBootstrapConfiguration() throws Exception {
        Result schemas = await("the bootstrap flowschemas", () -> kubectl.run("get", "flowschemas"),
                r -> FLOW_SCHEMAS.stream().allMatch(n -> r.stdout().lines().anyMatch(l -> l.startsWith(n + " "))));
        assertTrue(schemas.stdout().lines().anyMatch(l -> l.matches("service-accounts\\s+workload-low\\s+9000\\s+ByUser\\s+.*")),
                schemas.stdout());
        Result levels = await("the bootstrap priority levels", () -> kubectl.run("get", "prioritylevelconfigurations"),
                r -> PRIORITY_LEVELS.stream().allMatch(n -> r.stdout().lines().anyMatch(l -> l.startsWith(n + " "))));
        assertTrue(levels.stdout().lines().anyMatch(l -> l.matches("catch-all\\s+Limited\\s+5\\s+.*")), levels.stdout());
        assertEquals("true", kubectl.ok("get", "prioritylevelconfiguration", "workload-low", "-o",
                "jsonpath={.metadata.annotations.apf\\.kubernetes\\.io/autoupdate-spec}").stdout().trim());
    }

    @Test
    void responsesNameTheirFlowSchemaAndPriorityLevel() throws Exception {
        String token = kubectl.ok("create", "token", "flooder").stdout().trim();
        String schemaUID = uid("flowschema", "service-accounts");
        String levelUID = uid("prioritylevelconfiguration", "workload-low");
        HttpResponse<String> r = await("the stored service-accounts schema in force",
                () -> server.get(CONFIGMAPS, token),
                x -> x.headers().firstValue("X-Kubernetes-PF-FlowSchema-UID").orElse("").equals(schemaUID));
        assertEquals(200, r.statusCode(), r.body());
        assertEquals(levelUID, r.headers().firstValue("X-Kubernetes-PF-PriorityLevel-UID").orElse(""));
    }

    @Test
    void aFloodOfListsFromOneServiceAccountDoesNotStopAnotherUsersGet() throws Exception {
        String token = kubectl.ok("create", "token", "flooder").stdout().trim();
        String schemaUID = uid("flowschema", "service-accounts");
        await("the stored service-accounts schema in force", () -> server.get(CONFIGMAPS, token),
                x -> x.headers().firstValue("X-Kubernetes-PF-FlowSchema-UID").orElse("").equals(schemaUID));
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2)
                .connectTimeout(Duration.ofSeconds(5)).sslContext(KubelixServer.trusting(server.caCertificate()))
                .build();
        HttpRequest list = HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.port() + CONFIGMAPS))
                .header("Authorization", "Bearer " + token).header("Accept", "application/json")
                .timeout(Duration.ofSeconds(60)).build();
        AtomicBoolean flooding = new AtomicBoolean(true);
        AtomicInteger served = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        ExecutorService flood = Executors.newFixedThreadPool(24);
        List<Future<?>> floods = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            floods.add(flood.submit(() -> {
                while (flooding.get()) {
                    int code = client.send(list, HttpResponse.BodyHandlers.discarding()).statusCode();
                    (code == 429 ? refused : served).incrementAndGet();
                }
                return null;
            }));
        }
        try {
            Thread.sleep(2_000);
            long begin = System.nanoTime();
            Result alice = kubectl.run("get", "configmaps", "cm-1", "--as=alice", "--request-timeout=30s");
            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - begin);
            assertEquals(0, alice.exitCode(), alice.toString());
            assertTrue(alice.stdout().contains("cm-1"), alice.toString());
            assertTrue(seconds < 20, "alice waited " + seconds + " s behind the flood");
        } finally {
            flooding.set(false);
            flood.shutdown();
        }
        for (Future<?> f : floods) {
            f.get(60, TimeUnit.SECONDS);
        }
        assertTrue(served.get() > 0, "the flood was served too, in its level's seats (" + refused.get() + " refused)");

        String metrics = kubectl.ok("get", "--raw", "/metrics").stdout();
        assertTrue(metrics.lines().anyMatch(l -> l.startsWith("apiserver_flowcontrol_dispatched_requests_total{"
                + "flow_schema=\"service-accounts\",priority_level=\"workload-low\"}")), "dispatched by workload-low");
        assertTrue(metrics.lines().anyMatch(l -> l.startsWith("apiserver_flowcontrol_nominal_limit_seats{"
                + "priority_level=\"workload-low\"} 3")), "workload-low's seats: ceil(6 * 100 / 245)");
        String dump = kubectl.ok("get", "--raw", "/debug/api_priority_and_fairness/dump_priority_levels").stdout();
        assertTrue(dump.startsWith("PriorityLevelName,"), dump);
        assertTrue(dump.lines().anyMatch(l -> l.startsWith("workload-low,")), dump);
        assertTrue(kubectl.ok("get", "--raw", "/debug/api_priority_and_fairness/dump_queues").stdout()
                .startsWith("PriorityLevelName,"));
    }

    @Test
    void aFlowSchemaNamingAMissingLevelIsDangling() throws Exception {
        kubectl.ok("apply", "-f", write("to-nowhere.yaml", """
                apiVersion: flowcontrol.apiserver.k8s.io/v1
                kind: FlowSchema
                metadata:
                  name: to-nowhere
                spec:
                  matchingPrecedence: 5000
                  priorityLevelConfiguration:
                    name: missing
                  rules:
                  - subjects:
                    - kind: User
                      user:
                        name: nobody
                    nonResourceRules:
                    - verbs: ["get"]
                      nonResourceURLs: ["/version"]
                """).toString());
        await("to-nowhere Dangling", () -> kubectl.run("get", "flowschema", "to-nowhere"),
                r -> r.stdout().lines().anyMatch(l -> l.matches("to-nowhere\\s+missing\\s+5000\\s+<none>\\s+\\S+\\s+True")));
        assertTrue(kubectl.ok("get", "flowschema", "to-nowhere", "-o", "jsonpath={.status.conditions[0].message}")
                .stdout().contains("references the PriorityLevelConfiguration object named \"missing\" but there is no such object"));
    }

    private String uid(String kind, String name) throws Exception {
        return await(kind + " " + name, () -> kubectl.run("get", kind, name, "-o", "jsonpath={.metadata.uid}"),
                r -> r.exitCode() == 0 && !r.stdout().isBlank()).stdout().trim();
    }
}
