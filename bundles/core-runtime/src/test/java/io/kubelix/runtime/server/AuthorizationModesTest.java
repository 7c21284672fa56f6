package io.kubelix.runtime.server;

import io.kubelix.api.authz.AuthorizationDecision;
import io.kubelix.api.authz.Authorizer;
import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;
import org.junit.jupiter.api.Test;
import org.osgi.framework.Constants;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** --authorization-mode: parsing as kube-apiserver, and which authorizers are asked in which order. */
class AuthorizationModesTest {
    private static final UserInfo ALICE = new UserInfo("alice", "", List.of(UserInfo.ALL_AUTHENTICATED), Map.of());
    private static final RequestInfo GET = new RequestInfo(false, "/version", "get", "", "", "", "", "", "", "",
            List.of());

    @Test
    void badValuesAreRefusedWithKubesMessages() {
        assertEquals("authorization-mode \"Foo\" is not a valid mode (valid: AlwaysAllow, AlwaysDeny, ABAC, Webhook,"
                + " RBAC, Node)", assertThrows(IllegalArgumentException.class,
                () -> AuthorizationModes.parse("RBAC,Foo", PluginSwaps.none())).getMessage());
        assertEquals("authorization-mode \"RBAC\" has mode specified more than once",
                assertThrows(IllegalArgumentException.class,
                        () -> AuthorizationModes.parse("RBAC, RBAC", PluginSwaps.none())).getMessage());
        assertEquals("at least one authorization-mode must be passed", assertThrows(IllegalArgumentException.class,
                () -> AuthorizationModes.parse(" , ", PluginSwaps.none())).getMessage());
    }

    @Test
    void modesAreAskedInTheirOrderThenAuthorizersWithoutMode() {
        AuthorizationModes modes = AuthorizationModes.parse("Webhook,RBAC", PluginSwaps.none());
        Authorizer rbac = named("rbac");
        Authorizer webhook = named("webhook");
        Authorizer custom = named("custom");
        Authorizer allowAll = named("allow-all");
        modes.add(rbac, props("RBAC", 1L));
        modes.add(custom, Map.of(Constants.SERVICE_ID, 2L));
        modes.add(allowAll, props("AlwaysAllow", 3L));
        modes.add(webhook, props("Webhook", 4L));

        assertEquals(List.of(webhook, rbac, custom), modes.get());
        assertFalse(modes.asks(props("AlwaysAllow", 3L)), "AlwaysAllow is not configured");
        assertTrue(modes.unserved().isEmpty());

        modes.remove(webhook, props("Webhook", 4L));
        assertEquals(List.of("Webhook"), modes.unserved());
        assertEquals(List.of(rbac, custom), modes.get());
    }

    @Test
    void alwaysDenyIsBuiltInAndAlwaysAllowRefusesAnonymousRequests() {
        AuthorizationModes deny = AuthorizationModes.parse("AlwaysDeny", PluginSwaps.none());
        assertTrue(deny.unserved().isEmpty());
        assertEquals(AuthorizationDecision.Decision.DENY, deny.get().get(0).authorize(ALICE, GET).decision());
        assertTrue(deny.allowsAnonymous());

        assertFalse(AuthorizationModes.parse("RBAC,AlwaysAllow", PluginSwaps.none()).allowsAnonymous());
        assertEquals(List.of("RBAC"), AuthorizationModes.parse("RBAC", PluginSwaps.none()).unserved());
    }

    private static Map<String, Object> props(String mode, long id) {
        return Map.of(Authorizer.MODE, mode, Constants.SERVICE_ID, id);
    }

    private static Authorizer named(String name) {
        return new Authorizer() {
            @Override
            public AuthorizationDecision authorize(UserInfo user, RequestInfo request) {
                return AuthorizationDecision.allow(name);
            }

            @Override
            public String toString() {
                return name;
            }
        };
    }
}
