package io.kubelix.authz.webhook;

import io.kubelix.support.webhook.WebhookKubeconfig;
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
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The webhook authorizer against a real HTTP service: what it sends, how it reads answers, what it caches. */
class WebhookAuthorizerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final UserInfo ALICE = new UserInfo("alice", "u-1", List.of("devs", UserInfo.ALL_AUTHENTICATED),
            Map.of("scopes", List.of("a")));

    @TempDir
    Path dir;

    private HttpServer service;
    private final List<JsonNode> received = new CopyOnWriteArrayList<>();
    private final List<String> authorizations = new CopyOnWriteArrayList<>();
    private final AtomicLong clock = new AtomicLong();
    private WebhookAuthorizer webhook;

    @BeforeEach
    void start() throws Exception {
        service = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        service.createContext("/authorize", exchange -> {
            JsonNode review = JSON.readTree(exchange.getRequestBody().readAllBytes());
            received.add(review);
            authorizations.add(exchange.getRequestHeaders().getFirst("Authorization"));
            String verb = review.path("spec").path("resourceAttributes").path("verb").asText();
            String status = switch (verb) {
                case "get" -> "{\"allowed\":true,\"reason\":\"alice may read\"}";
                case "delete" -> "{\"allowed\":false,\"denied\":true,\"reason\":\"never\"}";
                case "boom" -> null;
                default -> "{\"allowed\":false}";
            };
            byte[] body = status == null ? new byte[0] : ("{\"apiVersion\":\"authorization.k8s.io/v1\",\"kind\":"
                    + "\"SubjectAccessReview\",\"status\":" + status + "}").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status == null ? 500 : 200, body.length == 0 ? -1 : body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        service.start();
        Path config = dir.resolve("webhook.kubeconfig");
        Files.writeString(config, "apiVersion: v1\nkind: Config\nclusters:\n- name: authz\n  cluster:\n    server: "
                + "http://127.0.0.1:" + service.getAddress().getPort() + "/authorize\nusers:\n- name: apiserver\n"
                + "  user:\n    tokenFile: token\n");
        Files.writeString(dir.resolve("token"), "s3cret\n");
        webhook = new WebhookAuthorizer(WebhookKubeconfig.read(config, new ObjectMapper(new YAMLFactory()),
                "authorization webhook config file"),
                HttpClient.newHttpClient(), JSON, Duration.ofMinutes(5), Duration.ofSeconds(30), clock::get);
    }

    @AfterEach
    void stop() {
        service.stop(0);
    }

    @Test
    void sendsKubesSubjectAccessReviewAndReadsItsAnswer() throws Exception {
        assertEquals(Decision.ALLOW, webhook.authorize(ALICE, resource("get")).decision());
        assertEquals("alice may read", webhook.authorize(ALICE, resource("get")).reason());
        assertEquals(JSON.readTree("{\"apiVersion\":\"authorization.k8s.io/v1\",\"kind\":\"SubjectAccessReview\","
                + "\"spec\":{\"resourceAttributes\":{\"namespace\":\"ns\",\"verb\":\"get\",\"group\":\"apps\","
                + "\"version\":\"v1\",\"resource\":\"deployments\",\"subresource\":\"scale\",\"name\":\"web\"},"
                + "\"user\":\"alice\",\"groups\":[\"devs\",\"system:authenticated\"],\"uid\":\"u-1\","
                + "\"extra\":{\"scopes\":[\"a\"]}}}"), received.get(0));
        assertEquals("Bearer s3cret", authorizations.get(0), "the kubeconfig's tokenFile");

        assertEquals(Decision.DENY, webhook.authorize(ALICE, resource("delete")).decision());
        assertEquals(Decision.NO_OPINION, webhook.authorize(ALICE, resource("list")).decision());
        assertEquals(Decision.NO_OPINION, webhook.authorize(ALICE, resource("boom")).decision());
        assertTrue(webhook.authorize(ALICE, resource("boom")).reason().startsWith("authorization webhook error"));
    }

    @Test
    void answersAreCachedForTheirTtl() {
        webhook.authorize(ALICE, resource("get"));
        webhook.authorize(ALICE, resource("list"));
        webhook.authorize(ALICE, resource("get"));
        webhook.authorize(ALICE, resource("list"));
        assertEquals(2, received.size(), "both answers came from the cache the second time");

        clock.addAndGet(Duration.ofSeconds(31).toNanos());
        webhook.authorize(ALICE, resource("get"));
        webhook.authorize(ALICE, resource("list"));
        assertEquals(3, received.size(), "the unauthorized answer expired after 30 s, the allowed one not");

        webhook.authorize(ALICE, resource("boom"));
        webhook.authorize(ALICE, resource("boom"));
        assertEquals(5, received.size(), "failed calls are not cached");
    }

    private static RequestInfo resource(String verb) {
        return new RequestInfo(true, "/apis/apps/v1/namespaces/ns/deployments/web/scale", verb, "apis", "apps", "v1",
                "ns", "deployments", "scale", "web", List.of());
    }
}
