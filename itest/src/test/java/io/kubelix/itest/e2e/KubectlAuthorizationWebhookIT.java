package io.kubelix.itest.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import io.kubelix.itest.e2e.Kubectl.Result;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import javax.net.ssl.SSLParameters;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The webhook authorizer against a service the test runs over HTTPS with its own CA, which
 * believes only the API server's client certificate (named in the webhook's kubeconfig): with
 * {@code --authorization-mode=RBAC,Webhook} the service sees the SubjectAccessReview kube sends and
 * its allow or deny decides what kubectl may do; with {@code --authorization-config} two webhooks'
 * {@code matchConditions} send each request to the right one, a webhook that is down denies under
 * {@code failurePolicy: Deny}, and a changed file applies without a restart.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KubectlAuthorizationWebhookIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SA = "system:serviceaccount:default:bot";

    /** A review received: the path it was posted to and the review. */
    private record Received(String path, JsonNode review) {
    }

    private final List<Received> received = new CopyOnWriteArrayList<>();
    private Path work;
    private TestPki pki;
    private HttpsServer webhook;

    @BeforeAll
    void startWebhook() throws Exception {
        work = KubelixServer.workDirectory("authz-webhook");
        pki = new TestPki(work.resolve("authz-pki")).ca("authz-webhook-ca");
        pki.server("webhook");
        pki.client("apiserver", "/CN=kube-apiserver");
        webhook = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        webhook.setHttpsConfigurator(new HttpsConfigurator(pki.clientContext("webhook", pki.dir().resolve("ca.crt"))) {
            @Override
            public void configure(HttpsParameters params) {
                // Only a client certificate of the webhook's CA, the API server's, is served.
                SSLParameters ssl = getSSLContext().getDefaultSSLParameters();
                ssl.setNeedClientAuth(true);
                params.setSSLParameters(ssl);
            }
        });
        webhook.createContext("/", exchange -> {
            JsonNode review = JSON.readTree(exchange.getRequestBody());
            String path = exchange.getRequestURI().getPath();
            received.add(new Received(path, review));
            byte[] body = JSON.writeValueAsBytes(JSON.createObjectNode().put("apiVersion", "authorization.k8s.io/v1")
                    .put("kind", "SubjectAccessReview").set("status", decide(path, review.path("spec"))));
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        webhook.start();
    }

    /** The service's policy: the bot may list configmaps, never touch secrets; the rest is left to others. */
    private static JsonNode decide(String path, JsonNode spec) {
        JsonNode attributes = spec.path("resourceAttributes");
        boolean bot = SA.equals(spec.path("user").asText());
        if (path.equals("/system")) {
            return JSON.createObjectNode().put("allowed", bot).put("reason", "the system webhook allows the bot");
        }
        if (bot && attributes.path("resource").asText().equals("secrets")) {
            return JSON.createObjectNode().put("allowed", false).put("denied", true)
                    .put("reason", "secrets are off limits");
        }
        if (bot && attributes.path("resource").asText().equals("configmaps")
                && attributes.path("verb").asText().equals("list")) {
            return JSON.createObjectNode().put("allowed", true).put("reason", "bots may list configmaps");
        }
        return JSON.createObjectNode().put("allowed", false);
    }

    @AfterAll
    void stopWebhook() {
        if (webhook != null) {
            webhook.stop(0);
        }
    }

    @Test
    void theWebhookSeesKubesReviewAndItsAnswerDecides() throws Exception {
        Path kubeconfig = kubeconfig("legacy.kubeconfig", "/authorize");
        try (KubelixServer server = start("legacy", "--authorization-mode", "RBAC,Webhook",
                "--authorization-webhook-config-file", kubeconfig.toString())) {
            Kubectl kubectl = server.kubectl(work);
            String token = botToken(server, kubectl);

            kubectl.ok("--token=" + token, "get", "configmaps", "-n", "default");
            JsonNode spec = reviews("/authorize", "configmaps").get(0).path("spec");
            assertEquals(SA, spec.path("user").asText(), spec::toString);
            assertEquals(JSON.readTree("[\"system:serviceaccounts\",\"system:serviceaccounts:default\","
                    + "\"system:authenticated\"]"), spec.path("groups"), spec::toString);
            assertEquals(JSON.readTree("{\"namespace\":\"default\",\"verb\":\"list\",\"version\":\"v1\","
                    + "\"resource\":\"configmaps\"}"), spec.path("resourceAttributes"), spec::toString);

            Result denied = kubectl.run("--token=" + token, "get", "secrets", "-n", "default");
            assertNotEquals(0, denied.exitCode(), denied::toString);
            assertTrue(denied.stderr().contains("Error from server (Forbidden): secrets is forbidden: User \"" + SA
                    + "\" cannot list resource \"secrets\" in API group \"\" in the namespace \"default\": "
                    + "secrets are off limits"), denied::toString);

            Result noOpinion = kubectl.run("--token=" + token, "get", "pods", "-n", "default");
            assertNotEquals(0, noOpinion.exitCode(), noOpinion::toString);
            assertTrue(noOpinion.stderr().contains("pods is forbidden: User \"" + SA + "\" cannot list resource "
                    + "\"pods\""), noOpinion::toString);
        }
    }

    @Test
    void anAuthorizationConfigurationRoutesRequestsToItsWebhooks() throws Exception {
        Path system = kubeconfig("system.kubeconfig", "/system");
        // Nothing listens on port 1: this webhook is down.
        Path down = work.resolve("down.kubeconfig");
        Files.writeString(down, "apiVersion: v1\nkind: Config\nclusters:\n- name: down\n  cluster:\n"
                + "    server: https://127.0.0.1:1/authorize\n    certificate-authority: " + pki.dir().resolve("ca.crt")
                + "\n");
        Path config = work.resolve("authorization-config.yaml");
        Files.writeString(config, authorizationConfig(system, down, "kube-system"));
        try (KubelixServer server = start("config", "--authorization-config", config.toString())) {
            Kubectl kubectl = server.kubectl(work);
            String token = botToken(server, kubectl);
            kubectl.ok("create", "namespace", "restricted");
            kubectl.ok("create", "rolebinding", "bot-view", "-n", "restricted", "--clusterrole=view",
                    "--serviceaccount=default:bot");
            kubectl.ok("create", "rolebinding", "bot-view", "-n", "default", "--clusterrole=view",
                    "--serviceaccount=default:bot");

            kubectl.ok("--token=" + token, "get", "configmaps", "-n", "kube-system");
            assertEquals("kube-system", reviews("/system", "configmaps").get(0).path("spec")
                    .path("resourceAttributes").path("namespace").asText());

            kubectl.ok("--token=" + token, "get", "configmaps", "-n", "default");
            assertEquals(1, reviews("/system", "configmaps").size(), "default is not the system webhook's: RBAC allowed");

            Result denied = kubectl.run("--token=" + token, "get", "configmaps", "-n", "restricted");
            assertNotEquals(0, denied.exitCode(), denied::toString);
            assertTrue(denied.stderr().contains("configmaps is forbidden: User \"" + SA + "\" cannot list resource "
                    + "\"configmaps\" in API group \"\" in the namespace \"restricted\""), denied::toString);

            // The file changes: the system webhook now serves default instead of kube-system.
            Files.writeString(config, authorizationConfig(system, down, "default") + "\n");
            server.await("the changed configuration applies", Duration.ofSeconds(30), () -> {
                kubectl.run("--token=" + token, "get", "configmaps", "-n", "default");
                return reviews("/system", "configmaps").size();
            }, n -> n > 1);
            assertEquals("default", reviews("/system", "configmaps").get(1).path("spec").path("resourceAttributes")
                    .path("namespace").asText());
        }
    }

    private static String authorizationConfig(Path system, Path down, String systemNamespace) {
        return "apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\nauthorizers:\n"
                + "- type: Webhook\n  name: system\n  webhook:\n    timeout: 5s\n    subjectAccessReviewVersion: v1\n"
                + "    matchConditionSubjectAccessReviewVersion: v1\n    failurePolicy: NoOpinion\n"
                + "    connectionInfo:\n      type: KubeConfigFile\n      kubeConfigFile: " + system + "\n"
                + "    matchConditions:\n    - expression: \"has(request.resourceAttributes) && "
                + "request.resourceAttributes.namespace == '" + systemNamespace + "'\"\n"
                + "- type: Webhook\n  name: down\n  webhook:\n    timeout: 2s\n    subjectAccessReviewVersion: v1\n"
                + "    matchConditionSubjectAccessReviewVersion: v1\n    failurePolicy: Deny\n"
                + "    connectionInfo:\n      type: KubeConfigFile\n      kubeConfigFile: " + down + "\n"
                + "    matchConditions:\n    - expression: \"has(request.resourceAttributes) && "
                + "request.resourceAttributes.namespace == 'restricted'\"\n"
                + "- type: RBAC\n  name: rbac\n";
    }

    /** The webhook's kubeconfig: its CA, and the client certificate it believes, with the key in -data form. */
    private Path kubeconfig(String name, String path) throws Exception {
        String key = Base64.getEncoder().encodeToString(Files.readAllBytes(pki.dir().resolve("apiserver.key")));
        return Files.writeString(work.resolve(name), "apiVersion: v1\nkind: Config\nclusters:\n- name: authz\n"
                + "  cluster:\n    server: https://127.0.0.1:" + webhook.getAddress().getPort() + path + "\n"
                + "    certificate-authority: " + pki.dir().resolve("ca.crt") + "\nusers:\n- name: kube-apiserver\n"
                + "  user:\n    client-certificate: " + pki.dir().resolve("apiserver.crt") + "\n"
                + "    client-key-data: " + key + "\n", StandardCharsets.UTF_8);
    }

    private KubelixServer start(String name, String... flags) throws Exception {
        KubelixServer server = KubelixServer.start(Path.of(System.getProperty("kubelix.itest.distribution")),
                Files.createDirectories(work.resolve(name)), KubectlSuite.READY_TIMEOUT, flags);
        server.awaitServed(server.kubectl(work), KubectlSuite.READY_TIMEOUT, "serviceaccounts,rolebindings");
        return server;
    }

    private static String botToken(KubelixServer server, Kubectl kubectl) throws Exception {
        kubectl.ok("create", "serviceaccount", "bot", "-n", "default");
        return server.await("kubectl create token bot", KubectlSuite.POLL_TIMEOUT,
                () -> kubectl.run("create", "token", "bot", "-n", "default"), r -> r.exitCode() == 0).stdout().trim();
    }

    /** The reviews posted to {@code path} about {@code resource}, in order. */
    private List<JsonNode> reviews(String path, String resource) {
        List<JsonNode> reviews = new ArrayList<>();
        for (Received r : received) {
            if (r.path().equals(path) && r.review().path("spec").path("resourceAttributes").path("resource").asText()
                    .equals(resource)) {
                reviews.add(r.review());
            }
        }
        return reviews;
    }
}
