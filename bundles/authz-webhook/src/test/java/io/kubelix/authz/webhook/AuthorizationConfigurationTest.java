package io.kubelix.authz.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.sun.net.httpserver.HttpServer;
import io.kubelix.api.authz.AuthorizationDecision.Decision;
import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The webhooks of an AuthorizationConfiguration: kube's defaults and checks, match conditions, failure policies. */
class AuthorizationConfigurationTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final String HEAD = "apiVersion: apiserver.config.k8s.io/v1beta1\nkind: AuthorizationConfiguration\n"
            + "authorizers:\n";
    private static final UserInfo ALICE = new UserInfo("alice", "", List.of("devs"), Map.of());

    @TempDir
    Path dir;

    private HttpServer service;
    private final List<JsonNode> received = new CopyOnWriteArrayList<>();
    private Path kubeconfig;

    @BeforeEach
    void start() throws Exception {
        service = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        service.createContext("/", exchange -> {
            JsonNode review = JSON.readTree(exchange.getRequestBody().readAllBytes());
            received.add(review);
            byte[] body = ("{\"status\":{\"allowed\":true,\"reason\":\"" + exchange.getRequestURI().getPath()
                    + "\"}}").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        service.start();
        kubeconfig = dir.resolve("webhook.kubeconfig");
        Files.writeString(kubeconfig, "clusters:\n- cluster:\n    server: http://127.0.0.1:"
                + service.getAddress().getPort() + "/system\n");
    }

    @AfterEach
    void stop() {
        service.stop(0);
    }

    @Test
    void defaultsAreKubes() {
        AuthorizationConfiguration.Webhook w = parse(HEAD + "- type: Webhook\n  name: system\n  webhook:\n"
                + "    timeout: 3s\n    subjectAccessReviewVersion: v1\n    failurePolicy: Deny\n"
                + "    cacheUnauthorizedRequests: false\n    connectionInfo:\n      type: KubeConfigFile\n"
                + "      kubeConfigFile: " + kubeconfig + "\n- {type: RBAC, name: rbac}\n").get(0);
        assertEquals("system", w.name());
        assertEquals(Duration.ofSeconds(3), w.settings().timeout());
        assertEquals(Duration.ofMinutes(5), w.settings().authorizedTtl());
        assertEquals(Duration.ZERO, w.settings().unauthorizedTtl(), "cacheUnauthorizedRequests: false");
        assertTrue(w.settings().denyOnFailure());
    }

    @Test
    void badWebhooksAreRefusedWithKubesMessages() {
        assertEquals("[authorizers[0].timeout: Required value, authorizers[0].subjectAccessReviewVersion: Unsupported "
                + "value: \"v2\": supported values: \"v1\", \"v1beta1\", authorizers[0].matchConditionSubjectAccessReviewVersion: "
                + "Required value: required if match conditions are specified, authorizers[0].failurePolicy: Unsupported "
                + "value: \"Allow\": supported values: \"NoOpinion\", \"Deny\", authorizers[0].connectionInfo.kubeConfigFile: "
                + "Invalid value: \"webhook.kubeconfig\": must be an absolute path, authorizers[0].matchConditions[1]"
                + ".expression: Invalid value: \"request.user\": must evaluate to bool]", refused(HEAD + "- type: Webhook\n"
                + "  name: w\n  webhook:\n    subjectAccessReviewVersion: v2\n    failurePolicy: Allow\n"
                + "    connectionInfo: {type: KubeConfigFile, kubeConfigFile: webhook.kubeconfig}\n"
                + "    matchConditions:\n    - expression: request.user == 'a'\n    - expression: request.user\n"));
        assertEquals("authorizers[0].timeout: Invalid value: \"45s\": must be > 0s and <= 30s", refused(HEAD
                + "- type: Webhook\n  name: w\n  webhook:\n    timeout: 45s\n    subjectAccessReviewVersion: v1\n"
                + "    failurePolicy: NoOpinion\n    connectionInfo: {type: KubeConfigFile, kubeConfigFile: " + kubeconfig
                + "}\n"));
        assertTrue(refused(HEAD + "- type: Webhook\n  name: w\n  webhook:\n    timeout: 1s\n"
                + "    subjectAccessReviewVersion: v1\n    failurePolicy: NoOpinion\n    connectionInfo: {type: "
                + "InClusterConfig}\n").contains("unable to load in-cluster configuration"));
    }

    @Test
    void matchConditionsRouteRequestsAndFailuresFollowThePolicy() throws Exception {
        Files.writeString(dir.resolve("down.kubeconfig"), "clusters:\n- cluster:\n    server: http://127.0.0.1:1/\n");
        List<AuthorizationConfiguration.Webhook> webhooks = parse(HEAD
                + webhook("system", kubeconfig, "NoOpinion", "v1beta1",
                        "has(request.resourceAttributes) && request.resourceAttributes.namespace == 'kube-system'")
                + webhook("down", dir.resolve("down.kubeconfig"), "Deny", "v1", "'devs' in request.groups")
                + webhook("broken", kubeconfig, "Deny", "v1", "request.resourceAttributes.namespace == 'x'"));
        WebhookAuthorizer system = authorizer(webhooks.get(0));
        WebhookAuthorizer down = authorizer(webhooks.get(1));
        WebhookAuthorizer broken = authorizer(webhooks.get(2));

        assertEquals(Decision.NO_OPINION, system.authorize(ALICE, get("default")).decision(), "not matched: skipped");
        assertEquals(0, received.size());
        assertEquals(Decision.ALLOW, system.authorize(ALICE, get("kube-system")).decision());
        assertEquals("authorization.k8s.io/v1beta1", received.get(0).path("apiVersion").asText());
        assertEquals("[\"devs\"]", received.get(0).path("spec").path("group").toString(), "v1beta1 says group");

        assertEquals(Decision.DENY, down.authorize(ALICE, get("default")).decision(), "failurePolicy Deny");
        assertEquals(Decision.NO_OPINION, down.authorize(new UserInfo("bob", "", List.of(), Map.of()), get("default"))
                .decision(), "not matched: the webhook that is down is not asked");

        RequestInfo version = new RequestInfo(false, "/version", "get", "", "", "", "", "", "", "", List.of());
        assertEquals(Decision.DENY, broken.authorize(ALICE, version).decision(),
                "a condition that fails (no resourceAttributes) follows the failure policy");
    }

    private static String webhook(String name, Path kubeconfig, String failurePolicy, String version, String condition) {
        return "- type: Webhook\n  name: " + name + "\n  webhook:\n    timeout: 2s\n    subjectAccessReviewVersion: "
                + version + "\n    matchConditionSubjectAccessReviewVersion: v1\n    failurePolicy: " + failurePolicy
                + "\n    connectionInfo: {type: KubeConfigFile, kubeConfigFile: " + kubeconfig + "}\n"
                + "    matchConditions:\n    - expression: \"" + condition + "\"\n";
    }

    private static WebhookAuthorizer authorizer(AuthorizationConfiguration.Webhook w) {
        return new WebhookAuthorizer(w.target(), HttpClient.newHttpClient(), JSON, w.settings(), System::nanoTime);
    }

    private static RequestInfo get(String namespace) {
        return new RequestInfo(true, "/api/v1/namespaces/" + namespace + "/configmaps", "list", "api", "", "v1",
                namespace, "configmaps", "", "", List.of());
    }

    private static List<AuthorizationConfiguration.Webhook> parse(String text) {
        return AuthorizationConfiguration.parse(text, YAML,
                () -> AuthorizationConfiguration.inCluster(Map.of(), Path.of("/nonexistent")));
    }

    private static String refused(String text) {
        return assertThrows(IllegalArgumentException.class, () -> parse(text)).getMessage();
    }
}
