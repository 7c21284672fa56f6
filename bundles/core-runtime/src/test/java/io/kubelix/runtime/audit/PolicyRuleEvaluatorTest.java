package io.kubelix.runtime.audit;

import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The rules of kube's policy checker (checker_test.go's cases, by kind of field). */
class PolicyRuleEvaluatorTest {
    private static final UserInfo ALICE = new UserInfo("alice", "", List.of("devs", "system:authenticated"), Map.of());

    @Test
    void theFirstMatchingRuleWinsAndNoMatchIsNone() {
        PolicyRuleEvaluator e = evaluator("""
                omitStages: [RequestReceived]
                rules:
                - level: None
                  users: [bob]
                - level: RequestResponse
                  userGroups: [devs]
                  verbs: [create]
                  omitStages: [ResponseStarted]
                  omitManagedFields: true
                - level: Metadata
                  verbs: [get, list, create]
                """);
        var create = e.evaluate(ALICE, resource("create", "", "default", "pods", "", ""));
        assertEquals(Level.RequestResponse, create.level());
        assertEquals(Set.of(Stage.RequestReceived, Stage.ResponseStarted), create.omitStages());
        assertTrue(create.omitManagedFields());
        assertEquals(Level.Metadata, e.evaluate(ALICE, resource("get", "", "default", "pods", "", "a")).level());
        assertEquals(Set.of(Stage.RequestReceived), e.evaluate(ALICE, resource("get", "", "", "nodes", "", "")).omitStages());
        UserInfo bob = new UserInfo("bob", "", List.of("devs"), Map.of());
        assertEquals(Level.None, e.evaluate(bob, resource("create", "", "default", "pods", "", "")).level());
        assertEquals(Level.None, e.evaluate(ALICE, resource("delete", "", "default", "pods", "", "a")).level());
        // An unauthenticated request matches no rule that names users or groups.
        assertEquals(Level.Metadata, e.evaluate(null, resource("get", "", "default", "pods", "", "a")).level());
        assertEquals(Level.None, e.evaluate(null, resource("watch", "", "default", "pods", "", "")).level());
    }

    @Test
    void resourcesMatchByGroupResourceSubresourceAndName() {
        assertTrue(matches("{group: \"\", resources: [pods]}", resource("get", "", "ns", "pods", "", "a")));
        assertFalse(matches("{group: \"\", resources: [pods]}", resource("get", "", "ns", "pods", "log", "a")));
        assertFalse(matches("{group: \"\", resources: [pods]}", resource("get", "apps", "ns", "pods", "", "a")));
        assertTrue(matches("{group: \"\", resources: [pods/log]}", resource("get", "", "ns", "pods", "log", "a")));
        assertFalse(matches("{group: \"\", resources: [pods/log]}", resource("get", "", "ns", "pods", "", "a")));
        assertTrue(matches("{group: \"\", resources: [\"pods/*\"]}", resource("get", "", "ns", "pods", "status", "a")));
        assertTrue(matches("{group: \"\", resources: [\"*/status\"]}", resource("get", "", "ns", "nodes", "status", "a")));
        assertFalse(matches("{group: \"\", resources: [\"*/status\"]}", resource("get", "", "ns", "nodes", "", "a")));
        assertTrue(matches("{group: apps, resources: [\"*\"]}", resource("get", "apps", "ns", "deployments", "scale", "")));
        assertTrue(matches("{group: apps}", resource("list", "apps", "ns", "deployments", "", "")));
        assertTrue(matches("{group: \"\", resources: [secrets], resourceNames: [token]}",
                resource("get", "", "ns", "secrets", "", "token")));
        assertFalse(matches("{group: \"\", resources: [secrets], resourceNames: [token]}",
                resource("get", "", "ns", "secrets", "", "other")));
        assertFalse(matches("{group: \"\", resources: [\"*\"]}", nonResource("get", "/api")));
    }

    @Test
    void namespacesMatchResourceRequestsOnlyAndEmptyIsClusterScope() {
        PolicyRuleEvaluator e = evaluator("""
                rules:
                - level: Request
                  namespaces: ["", kube-system]
                """);
        assertEquals(Level.Request, e.evaluate(ALICE, resource("get", "", "kube-system", "pods", "", "a")).level());
        assertEquals(Level.Request, e.evaluate(ALICE, resource("get", "", "", "nodes", "", "a")).level());
        assertEquals(Level.None, e.evaluate(ALICE, resource("get", "", "default", "pods", "", "a")).level());
        assertEquals(Level.None, e.evaluate(ALICE, nonResource("get", "/healthz")).level());
    }

    @Test
    void nonResourceURLsMatchExactlyByPrefixOrAll() {
        PolicyRuleEvaluator e = evaluator("""
                rules:
                - level: Metadata
                  nonResourceURLs: ["/healthz*", "/version"]
                - level: Request
                  nonResourceURLs: ["*"]
                """);
        assertEquals(Level.Metadata, e.evaluate(ALICE, nonResource("get", "/healthz")).level());
        assertEquals(Level.Metadata, e.evaluate(ALICE, nonResource("get", "/healthz/etcd")).level());
        assertEquals(Level.Metadata, e.evaluate(ALICE, nonResource("get", "/version")).level());
        assertEquals(Level.Request, e.evaluate(ALICE, nonResource("get", "/version/x")).level());
        assertEquals(Level.None, e.evaluate(ALICE, resource("get", "", "default", "pods", "", "a")).level());
    }

    private static boolean matches(String groupResources, RequestInfo info) {
        return evaluator("rules:\n- level: Metadata\n  resources: [" + groupResources + "]\n")
                .evaluate(ALICE, info).level() == Level.Metadata;
    }

    private static PolicyRuleEvaluator evaluator(String body) {
        return new PolicyRuleEvaluator(PolicyReader.parse(("apiVersion: audit.k8s.io/v1\nkind: Policy\n" + body)
                .getBytes(StandardCharsets.UTF_8)));
    }

    static RequestInfo resource(String verb, String group, String namespace, String resource, String subresource,
                                String name) {
        return new RequestInfo(true, "/x", verb, group.isEmpty() ? "api" : "apis", group, "v1", namespace, resource,
                subresource, name, List.of());
    }

    static RequestInfo nonResource(String verb, String path) {
        return new RequestInfo(false, path, verb, "", "", "", "", "", "", "", List.of());
    }
}
