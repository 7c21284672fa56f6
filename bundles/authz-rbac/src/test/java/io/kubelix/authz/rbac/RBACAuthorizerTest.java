package io.kubelix.authz.rbac;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.authz.AuthorizationDecision;
import io.kubelix.api.authz.AuthorizationDecision.Decision;
import io.kubelix.api.authz.SubjectRules;
import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** kube's RBAC authorizer semantics: subjects, role references, and each part of a rule. */
class RBACAuthorizerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final UserInfo BOT = new UserInfo("system:serviceaccount:apps:bot", "",
            List.of("system:serviceaccounts", "system:serviceaccounts:apps", UserInfo.ALL_AUTHENTICATED), Map.of());
    private static final UserInfo ALICE = new UserInfo("alice", "", List.of("devs", UserInfo.ALL_AUTHENTICATED),
            Map.of());

    private final RbacPolicy policy = new RbacPolicy();
    private final RBACAuthorizer rbac = new RBACAuthorizer(policy);

    @Test
    void aServiceAccountIsAllowedOnlyWhereARoleBindingGrantsIt() {
        policy.putClusterRole(clusterRole("view", rule("[\"get\",\"list\",\"watch\"]", "[\"\"]", "[\"configmaps\"]")));
        assertEquals(Decision.NO_OPINION, decide(BOT, resource("list", "", "apps", "configmaps", "", "")));

        policy.putBinding(roleBinding("apps", "bot-view", "ClusterRole", "view",
                "{\"kind\":\"ServiceAccount\",\"name\":\"bot\"}"));

        assertEquals(Decision.ALLOW, decide(BOT, resource("list", "", "apps", "configmaps", "", "")));
        assertEquals(Decision.ALLOW, decide(BOT, resource("get", "", "apps", "configmaps", "", "settings")));
        assertEquals(Decision.NO_OPINION, decide(BOT, resource("list", "", "other", "configmaps", "", "")),
                "a role binding grants in its namespace only");
        assertEquals(Decision.NO_OPINION, decide(BOT, resource("list", "", "", "configmaps", "", "")),
                "nor across namespaces");
        assertEquals(Decision.NO_OPINION, decide(BOT, resource("delete", "", "apps", "configmaps", "", "x")));
        assertEquals(Decision.NO_OPINION, decide(BOT, resource("list", "", "apps", "secrets", "", "")));
    }

    @Test
    void removingOrChangingABindingTakesTheGrantAway() {
        policy.putRole(role("apps", "reader", rule("[\"get\"]", "[\"\"]", "[\"secrets\"]")));
        ObjectNode binding = roleBinding("apps", "alice-reads", "Role", "reader", "{\"kind\":\"User\",\"name\":\"alice\"}");
        policy.putBinding(binding);
        RequestInfo get = resource("get", "", "apps", "secrets", "", "token");
        assertEquals(Decision.ALLOW, decide(ALICE, get));

        policy.putBinding(roleBinding("apps", "alice-reads", "Role", "reader", "{\"kind\":\"User\",\"name\":\"bob\"}"));
        assertEquals(Decision.NO_OPINION, decide(ALICE, get), "the binding now names bob");

        policy.putBinding(binding);
        policy.removeBinding(binding);
        assertEquals(Decision.NO_OPINION, decide(ALICE, get));
    }

    @Test
    void groupsAndClusterRoleBindingsGrantEverywhere() {
        policy.putClusterRole(clusterRole("deployer", rule("[\"*\"]", "[\"apps\"]", "[\"deployments\"]")));
        policy.putBinding(clusterRoleBinding("devs-deploy", "deployer", "{\"kind\":\"Group\",\"name\":\"devs\"}",
                "{\"kind\":\"ServiceAccount\",\"name\":\"bot\"}"));

        assertEquals(Decision.ALLOW, decide(ALICE, resource("delete", "apps", "prod", "deployments", "", "web")));
        assertEquals(Decision.ALLOW, decide(ALICE, resource("list", "apps", "", "deployments", "", "")));
        assertEquals(Decision.NO_OPINION, decide(ALICE, resource("list", "", "prod", "deployments", "", "")),
                "another API group");
        assertEquals(Decision.NO_OPINION, decide(BOT, resource("list", "apps", "apps", "deployments", "", "")),
                "a service account subject of a cluster role binding must name its namespace");
    }

    @Test
    void subresourcesMatchWhenNamedOrThroughAStar() {
        policy.putClusterRole(clusterRole("logs", rule("[\"get\"]", "[\"\"]", "[\"pods/log\"]"),
                rule("[\"update\",\"get\"]", "[\"*\"]", "[\"*/scale\"]")));
        policy.putBinding(clusterRoleBinding("alice-logs", "logs", "{\"kind\":\"User\",\"name\":\"alice\"}"));

        assertEquals(Decision.ALLOW, decide(ALICE, resource("get", "", "ns", "pods", "log", "web")));
        assertEquals(Decision.NO_OPINION, decide(ALICE, resource("get", "", "ns", "pods", "", "web")),
                "pods/log grants the subresource, not the pod");
        assertEquals(Decision.ALLOW, decide(ALICE, resource("update", "apps", "ns", "deployments", "scale", "web")));
        assertEquals(Decision.NO_OPINION, decide(ALICE, resource("update", "apps", "ns", "deployments", "status",
                "web")));
    }

    @Test
    void resourceNamesLimitToNamedObjects() {
        policy.putClusterRole(clusterRole("one", rule("[\"get\",\"list\"]", "[\"\"]", "[\"configmaps\"]",
                "[\"settings\"]")));
        policy.putBinding(clusterRoleBinding("alice-one", "one", "{\"kind\":\"User\",\"name\":\"alice\"}"));

        assertEquals(Decision.ALLOW, decide(ALICE, resource("get", "", "ns", "configmaps", "", "settings")));
        assertEquals(Decision.NO_OPINION, decide(ALICE, resource("get", "", "ns", "configmaps", "", "other")));
        assertEquals(Decision.NO_OPINION, decide(ALICE, resource("list", "", "ns", "configmaps", "", "")),
                "a list names no object");
    }

    @Test
    void nonResourceURLsMatchExactlyOrByPrefixAndNeverResources() {
        ObjectNode rule = JSON.createObjectNode();
        rule.putArray("verbs").add("get");
        rule.putArray("nonResourceURLs").add("/version").add("/healthz/*");
        policy.putClusterRole(clusterRole("info", rule));
        policy.putBinding(clusterRoleBinding("anyone-info", "info",
                "{\"kind\":\"Group\",\"name\":\"system:unauthenticated\"}"));
        UserInfo anonymous = new UserInfo(UserInfo.ANONYMOUS, "", List.of(UserInfo.ALL_UNAUTHENTICATED), Map.of());

        assertEquals(Decision.ALLOW, decide(anonymous, nonResource("get", "/version")));
        assertEquals(Decision.ALLOW, decide(anonymous, nonResource("get", "/healthz/etcd")));
        assertEquals(Decision.NO_OPINION, decide(anonymous, nonResource("get", "/version/extra")));
        assertEquals(Decision.NO_OPINION, decide(anonymous, nonResource("post", "/version")));
        assertEquals(Decision.NO_OPINION, decide(anonymous, resource("get", "", "", "secrets", "", "")));
    }

    @Test
    void aBindingToAMissingRoleIsTheReason() {
        policy.putBinding(roleBinding("apps", "dangling", "Role", "gone", "{\"kind\":\"User\",\"name\":\"alice\"}"));

        AuthorizationDecision d = rbac.authorize(ALICE, resource("get", "", "apps", "pods", "", "web"));

        assertEquals(Decision.NO_OPINION, d.decision());
        assertEquals("RBAC: role.rbac.authorization.k8s.io \"gone\" not found", d.reason());

        policy.putBinding(clusterRoleBinding("dangling2", "gone-too", "{\"kind\":\"User\",\"name\":\"alice\"}"));
        assertEquals("RBAC: [clusterrole.rbac.authorization.k8s.io \"gone-too\" not found, "
                + "role.rbac.authorization.k8s.io \"gone\" not found]",
                rbac.authorize(ALICE, resource("get", "", "apps", "pods", "", "web")).reason());
    }

    @Test
    void theAllowingBindingIsNamed() {
        policy.putClusterRole(clusterRole("all", rule("[\"*\"]", "[\"*\"]", "[\"*\"]")));
        policy.putBinding(clusterRoleBinding("alice-all", "all", "{\"kind\":\"User\",\"name\":\"alice\"}"));

        AuthorizationDecision d = rbac.authorize(ALICE, resource("create", "batch", "ns", "jobs", "", ""));

        assertEquals(Decision.ALLOW, d.decision());
        assertTrue(d.reason().contains("ClusterRoleBinding \"alice-all\" of ClusterRole \"all\""), d.reason());
    }

    @Test
    void rulesForListsWhatAppliesInTheNamespace() {
        ObjectNode urls = JSON.createObjectNode();
        urls.putArray("verbs").add("get");
        urls.putArray("nonResourceURLs").add("/metrics");
        policy.putClusterRole(clusterRole("view", rule("[\"get\"]", "[\"\"]", "[\"pods\"]"), urls));
        policy.putRole(role("apps", "edit", rule("[\"create\"]", "[\"\"]", "[\"pods\"]")));
        policy.putBinding(clusterRoleBinding("alice-view", "view", "{\"kind\":\"User\",\"name\":\"alice\"}"));
        policy.putBinding(roleBinding("apps", "alice-edit", "Role", "edit", "{\"kind\":\"User\",\"name\":\"alice\"}"));

        SubjectRules inApps = rbac.rulesFor(ALICE, "apps");
        assertEquals(List.of(List.of("get"), List.of("create")),
                inApps.resourceRules().stream().map(SubjectRules.ResourceRule::verbs).toList());
        assertEquals(List.of("/metrics"), inApps.nonResourceRules().get(0).nonResourceURLs());
        assertFalse(inApps.incomplete());
        assertEquals(1, rbac.rulesFor(ALICE, "other").resourceRules().size());

        policy.putBinding(roleBinding("other", "dangling", "Role", "gone", "{\"kind\":\"User\",\"name\":\"alice\"}"));
        SubjectRules inOther = rbac.rulesFor(ALICE, "other");
        assertTrue(inOther.incomplete());
        assertEquals("role.rbac.authorization.k8s.io \"gone\" not found", inOther.evaluationError());
    }

    private Decision decide(UserInfo user, RequestInfo request) {
        return rbac.authorize(user, request).decision();
    }

    private static RequestInfo resource(String verb, String group, String namespace, String resource,
                                        String subresource, String name) {
        return new RequestInfo(true, "/apis/x", verb, group.isEmpty() ? "api" : "apis", group, "v1", namespace,
                resource, subresource, name, List.of());
    }

    private static RequestInfo nonResource(String verb, String path) {
        return new RequestInfo(false, path, verb, "", "", "", "", "", "", "", List.of());
    }

    private static ObjectNode rule(String verbs, String groups, String resources) {
        return rule(verbs, groups, resources, "[]");
    }

    private static ObjectNode rule(String verbs, String groups, String resources, String names) {
        return parse("{\"verbs\":" + verbs + ",\"apiGroups\":" + groups + ",\"resources\":" + resources
                + ",\"resourceNames\":" + names + "}");
    }

    private static ObjectNode clusterRole(String name, ObjectNode... rules) {
        ObjectNode role = parse("{\"kind\":\"ClusterRole\",\"metadata\":{\"name\":\"" + name + "\"}}");
        role.putArray("rules").addAll(List.of(rules));
        return role;
    }

    private static ObjectNode role(String namespace, String name, ObjectNode... rules) {
        ObjectNode role = parse("{\"kind\":\"Role\",\"metadata\":{\"namespace\":\"" + namespace + "\",\"name\":\""
                + name + "\"}}");
        role.putArray("rules").addAll(List.of(rules));
        return role;
    }

    private static ObjectNode roleBinding(String namespace, String name, String roleKind, String roleName,
                                         String... subjects) {
        return parse("{\"kind\":\"RoleBinding\",\"metadata\":{\"namespace\":\"" + namespace + "\",\"name\":\"" + name
                + "\"},\"roleRef\":{\"kind\":\"" + roleKind + "\",\"name\":\"" + roleName + "\"},\"subjects\":["
                + String.join(",", subjects) + "]}");
    }

    private static ObjectNode clusterRoleBinding(String name, String roleName, String... subjects) {
        return parse("{\"kind\":\"ClusterRoleBinding\",\"metadata\":{\"name\":\"" + name + "\"},\"roleRef\":{"
                + "\"kind\":\"ClusterRole\",\"name\":\"" + roleName + "\"},\"subjects\":[" + String.join(",", subjects)
                + "]}");
    }

    private static ObjectNode parse(String json) {
        try {
            return (ObjectNode) JSON.readTree(json);
        } catch (Exception e) {
            throw new IllegalArgumentException(json, e);
        }
    }
}
