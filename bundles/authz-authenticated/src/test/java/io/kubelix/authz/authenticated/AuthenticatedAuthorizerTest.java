package io.kubelix.authz.authenticated;

import io.kubelix.api.authz.AuthorizationDecision;
import io.kubelix.api.authz.AuthorizationDecision.Decision;
import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AuthenticatedAuthorizerTest {

    private static final RequestInfo DELETE_POD = new RequestInfo(true, "/api/v1/namespaces/default/pods/web",
            "delete", "api", "", "v1", "default", "pods", "", "web", List.of("pods", "web"));

    private final AuthenticatedAuthorizer authorizer = new AuthenticatedAuthorizer();

    @Test
    void allowsAuthenticatedUsersAndSaysWhy() {
        UserInfo alice = new UserInfo("alice", "", List.of("dev", UserInfo.ALL_AUTHENTICATED), Map.of());

        AuthorizationDecision decision = authorizer.authorize(alice, DELETE_POD);

        assertEquals(Decision.ALLOW, decision.decision());
        assertTrue(decision.reason().contains("alice") && decision.reason().contains(UserInfo.ALL_AUTHENTICATED),
                decision.reason());
    }

    @Test
    void hasNoOpinionOnAnyoneElse() {
        UserInfo anonymous = new UserInfo(UserInfo.ANONYMOUS, "", List.of(UserInfo.ALL_UNAUTHENTICATED), Map.of());
        UserInfo groupless = new UserInfo("bob", "", List.of("system:masters"), Map.of());

        assertEquals(Decision.NO_OPINION, authorizer.authorize(anonymous, DELETE_POD).decision());
        assertEquals(Decision.NO_OPINION, authorizer.authorize(groupless, DELETE_POD).decision());
        assertEquals(Decision.NO_OPINION, authorizer.authorize(null, DELETE_POD).decision());
    }
}
