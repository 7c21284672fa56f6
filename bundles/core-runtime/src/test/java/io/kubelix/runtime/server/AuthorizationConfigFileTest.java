package io.kubelix.runtime.server;

import io.kubelix.api.authz.AuthorizationDecision;
import io.kubelix.api.authz.Authorizer;
import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;

import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** --authorization-config: kube's checks of the AuthorizationConfiguration, the order it gives, its reloads. */
class AuthorizationConfigFileTest {
    private static final String HEAD = "apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\n";
    private static final String WEBHOOK = "  webhook: {timeout: 3s}\n";

    @TempDir
    Path dir;

    @Test
    void entriesComeInTheirOrder() {
        assertEquals(List.of(new AuthorizationModes.Entry("Webhook", "first"), new AuthorizationModes.Entry("RBAC", "rbac"),
                new AuthorizationModes.Entry("Webhook", "second")), AuthorizationConfigFile.parse(HEAD + "authorizers:\n"
                + "- type: Webhook\n  name: first\n" + WEBHOOK + "- type: RBAC\n  name: rbac\n"
                + "- type: Webhook\n  name: second\n" + WEBHOOK, Set.of()));
    }

    @Test
    void badFilesAreRefusedWithKubesMessages() {
        assertEquals("authorizers: Required value: at least one authorization mode must be defined",
                refused(HEAD + "authorizers: []\n"));
        assertEquals("[authorizers[1].type: Duplicate value: \"RBAC\", authorizers[3].type: Unsupported value: "
                + "\"Foo\": supported values: \"ABAC\", \"AlwaysAllow\", \"AlwaysDeny\", \"Node\", \"RBAC\", "
                + "\"Webhook\", authorizers[4].name: Duplicate value: \"a\"]", refused(HEAD + "authorizers:\n"
                + "- {type: RBAC, name: rbac}\n- {type: RBAC, name: rbac}\n- type: Webhook\n  name: a\n" + WEBHOOK
                + "- {type: Foo, name: foo}\n- type: Webhook\n  name: a\n" + WEBHOOK));
        assertEquals("[authorizers[0].webhook: Required value: required when type=Webhook, authorizers[1].webhook: "
                + "Invalid value: \"non-null\": may only be specified when type=Webhook]", refused(HEAD + "authorizers:\n"
                + "- {type: Webhook, name: w}\n- type: RBAC\n  name: rbac\n" + WEBHOOK));
        assertEquals("authorizers[0].name: Invalid value: \"Web_1\": authorizer name is invalid: a lowercase RFC 1123 "
                + "subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end "
                + "with an alphanumeric character (e.g. 'example.com', regex used for validation is "
                + "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
                refused(HEAD + "authorizers:\n- type: Webhook\n  name: Web_1\n" + WEBHOOK));
        assertEquals("expected name rbac for authorizer RBAC instead of my-rbac",
                refused(HEAD + "authorizers:\n- {type: RBAC, name: my-rbac}\n"));
        assertEquals("failed to load AuthorizationConfiguration from file: no kind \"AuthorizationConfiguration\" is "
                + "registered for version \"apiserver.config.k8s.io/v2\"", refused("apiVersion: apiserver.config.k8s.io/v2\n"
                + "kind: AuthorizationConfiguration\nauthorizers: []\n"));
        assertEquals("missing required types: [Node RBAC]", assertThrows(IllegalArgumentException.class,
                () -> AuthorizationConfigFile.parse(HEAD + "authorizers:\n- {type: AlwaysDeny, name: alwaysdeny}\n",
                        Set.of("RBAC", "Node"))).getMessage());
    }

    @Test
    void theFileOrdersTheAuthorizersByTypeAndNameAndIsReloaded() throws Exception {
        Path file = dir.resolve("authz.yaml");
        Files.writeString(file, HEAD + "authorizers:\n- type: Webhook\n  name: a\n" + WEBHOOK
                + "- {type: RBAC, name: rbac}\n");
        AuthorizationModes modes = AuthorizationModes.fromFile(file, PluginSwaps.none());
        Authorizer a = named("a");
        Authorizer b = named("b");
        Authorizer rbac = named("rbac");
        modes.add(rbac, Map.of(Authorizer.MODE, "RBAC", Constants.SERVICE_ID, 1L));
        modes.add(b, Map.of(Authorizer.MODE, "Webhook", Authorizer.NAME, "b", Constants.SERVICE_ID, 2L));
        modes.add(a, Map.of(Authorizer.MODE, "Webhook", Authorizer.NAME, "a", Constants.SERVICE_ID, 3L));
        assertEquals(List.of(a, rbac), modes.get());
        assertEquals(List.of("Webhook \"a\"", "RBAC"), modes.modes());

        Files.writeString(file, HEAD + "authorizers:\n- {type: RBAC, name: rbac}\n- type: Webhook\n  name: b\n"
                + WEBHOOK);
        Thread.sleep(AuthorizationModes.RELOAD_INTERVAL.toMillis() + 200);
        assertEquals(List.of(rbac, b), modes.get(), "the changed file's order");

        Files.writeString(file, HEAD + "authorizers:\n- type: Webhook\n  name: a\n" + WEBHOOK);
        Thread.sleep(AuthorizationModes.RELOAD_INTERVAL.toMillis() + 200);
        assertEquals(List.of(rbac, b), modes.get(), "a file dropping RBAC is refused and the last good one kept");

        Files.delete(file);
        Thread.sleep(AuthorizationModes.RELOAD_INTERVAL.toMillis() + 200);
        assertEquals(List.of(rbac, b), modes.get(), "a removed file keeps the last good one");
    }

    @Test
    void theFileMayNotComeWithTheFlagsItReplaces() throws Exception {
        Path file = dir.resolve("authz.yaml");
        Files.writeString(file, HEAD + "authorizers:\n- {type: RBAC, name: rbac}\n");
        BundleContext none = (BundleContext) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {BundleContext.class}, (proxy, method, args) -> null);
        assertEquals("--authorization-config can not be specified when --authorization-mode or "
                + "--authorization-webhook-* flags are defined", assertThrows(IllegalArgumentException.class,
                () -> GenericAPIServer.authorizationModes(new Settings(Map.of("authorization-config", file.toString(),
                        "authorization-webhook-cache-authorized-ttl", "1m"), none), PluginSwaps.none())).getMessage());
        assertEquals(List.of("RBAC"), GenericAPIServer.authorizationModes(new Settings(Map.of("authorization-config",
                file.toString()), none), PluginSwaps.none()).modes());
    }

    private static String refused(String text) {
        return assertThrows(IllegalArgumentException.class, () -> AuthorizationConfigFile.parse(text, Set.of()))
                .getMessage();
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
