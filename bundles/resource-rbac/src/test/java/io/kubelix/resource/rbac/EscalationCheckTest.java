package io.kubelix.resource.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubelix.api.authz.AuthorizationChain;
import io.kubelix.api.authz.AuthorizationDecision;
import io.kubelix.api.authz.SubjectRules;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** kube's escalation prevention: roles and bindings may grant only what their writer holds, unless escalate or bind. */
class EscalationCheckTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final UserInfo ALICE = new UserInfo("alice", "", List.of("devs", UserInfo.ALL_AUTHENTICATED), Map.of());

    /** Alice holds get/list on pods and configmaps, every verb on deployments/*, and GET on /healthz/*. */
    private static final SubjectRules ALICE_HOLDS = new SubjectRules(List.of(
            new SubjectRules.ResourceRule(List.of("get", "list"), List.of(""), List.of("pods", "configmaps"), List.of()),
            new SubjectRules.ResourceRule(List.of("*"), List.of("apps"), List.of("deployments/*"), List.of()),
            new SubjectRules.ResourceRule(List.of("get"), List.of(""), List.of("secrets"), List.of("token"))),
            List.of(new SubjectRules.NonResourceRule(List.of("get"), List.of("/healthz/*"))), false, "");

    private String allowedVerb = "";
    private final AuthorizationChain chain = new AuthorizationChain() {
        @Override
        public AuthorizationDecision authorize(UserInfo user, RequestInfo request) {
            return request.verb().equals(allowedVerb) ? AuthorizationDecision.allow("") : AuthorizationDecision.noOpinion();
        }

        @Override
        public SubjectRules rulesFor(UserInfo user, String namespace) {
            return ALICE_HOLDS;
        }
    };
    private final EscalationCheck check = new EscalationCheck(() -> chain,
            (ctx, kind, name, namespace) -> rules("[{\"verbs\":[\"delete\"],\"apiGroups\":[\"\"],\"resources\":[\"pods\"]}]"));

    @Test
    void rulesTheWriterHoldsMayBeGranted() {
        assertDoesNotThrow(() -> check.checkRole(ctx(ALICE), RbacRESTStorageProvider.ROLES, "r", "ns", rules(
                "[{\"verbs\":[\"get\"],\"apiGroups\":[\"\"],\"resources\":[\"pods\",\"configmaps\"]},"
                        + "{\"verbs\":[\"update\"],\"apiGroups\":[\"apps\"],\"resources\":[\"deployments/scale\"]},"
                        + "{\"verbs\":[\"get\"],\"apiGroups\":[\"\"],\"resources\":[\"secrets\"],\"resourceNames\":[\"token\"]},"
                        + "{\"verbs\":[\"get\"],\"nonResourceURLs\":[\"/healthz/etcd\"]}]")));
    }

    @Test
    void rulesTheWriterLacksAreForbiddenAndNamed() {
        StatusException e = assertThrows(StatusException.class, () -> check.checkRole(ctx(ALICE),
                RbacRESTStorageProvider.CLUSTERROLES, "too-much", "", rules(
                        "[{\"verbs\":[\"get\",\"delete\",\"watch\"],\"apiGroups\":[\"\"],\"resources\":[\"pods\"]},"
                                + "{\"verbs\":[\"get\"],\"apiGroups\":[\"\"],\"resources\":[\"secrets\"]},"
                                + "{\"verbs\":[\"get\"],\"apiGroups\":[\"apps\"],\"resources\":[\"deployments\"]},"
                                + "{\"verbs\":[\"get\"],\"nonResourceURLs\":[\"/metrics\"]}]")));

        assertEquals(403, e.code());
        assertEquals("clusterroles.rbac.authorization.k8s.io \"too-much\" is forbidden: user \"alice\" (groups="
                + "[\"devs\" \"system:authenticated\"]) is attempting to grant RBAC permissions not currently held:\n"
                + "{APIGroups:[\"\"], Resources:[\"pods\"], Verbs:[\"delete\" \"watch\"]}\n"
                + "{APIGroups:[\"\"], Resources:[\"secrets\"], Verbs:[\"get\"]}\n"
                + "{APIGroups:[\"apps\"], Resources:[\"deployments\"], Verbs:[\"get\"]}\n"
                + "{NonResourceURLs:[\"/metrics\"], Verbs:[\"get\"]}", e.getMessage());
    }

    @Test
    void escalateAndBindAllowWhatIsNotHeldAndSystemMastersAlways() {
        String everything = "[{\"verbs\":[\"*\"],\"apiGroups\":[\"*\"],\"resources\":[\"*\"]}]";
        assertThrows(StatusException.class, () -> check.checkRole(ctx(ALICE), RbacRESTStorageProvider.ROLES, "r", "ns",
                rules(everything)));
        allowedVerb = "escalate";
        assertDoesNotThrow(() -> check.checkRole(ctx(ALICE), RbacRESTStorageProvider.ROLES, "r", "ns", rules(everything)));

        JsonNode ref = rules("{\"kind\":\"ClusterRole\",\"name\":\"deleter\"}");
        assertThrows(StatusException.class, () -> check.checkBinding(ctx(ALICE), RbacRESTStorageProvider.ROLEBINDINGS,
                "b", "ns", ref), "the role grants delete on pods, which alice lacks");
        allowedVerb = "bind";
        assertDoesNotThrow(() -> check.checkBinding(ctx(ALICE), RbacRESTStorageProvider.ROLEBINDINGS, "b", "ns", ref));

        allowedVerb = "";
        assertDoesNotThrow(() -> check.checkBinding(RequestContext.system("ns"), RbacRESTStorageProvider.ROLEBINDINGS,
                "b", "ns", ref));
    }

    @Test
    void withoutTheAuthorizationChainOnlySystemMastersMayGrant() {
        EscalationCheck alone = new EscalationCheck(() -> null, (ctx, kind, name, namespace) -> rules("[]"));
        assertThrows(StatusException.class, () -> alone.checkRole(ctx(ALICE), RbacRESTStorageProvider.ROLES, "r", "ns",
                rules("[{\"verbs\":[\"get\"],\"apiGroups\":[\"\"],\"resources\":[\"pods\"]}]")));
        assertDoesNotThrow(() -> alone.checkRole(RequestContext.system(""), RbacRESTStorageProvider.ROLES, "r", "ns",
                rules("[{\"verbs\":[\"get\"],\"apiGroups\":[\"\"],\"resources\":[\"pods\"]}]")));
    }

    private static JsonNode rules(String json) {
        try {
            return JSON.readTree(json);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static RequestContext ctx(UserInfo user) {
        return new RequestContext() {
            @Override
            public UserInfo user() {
                return user;
            }

            @Override
            public RequestInfo requestInfo() {
                return null;
            }

            @Override
            public String namespace() {
                return "ns";
            }

            @Override
            public void addWarning(String message) {
            }
        };
    }
}
