package io.kubelix.runtime.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubelix.api.authn.Authenticator;
import io.kubelix.api.authn.TokenIssuer;
import io.kubelix.api.authz.AuthorizationDecision;
import io.kubelix.api.authz.Authorizer;
import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;
import io.kubelix.runtime.metrics.RequestMetrics;
import io.kubelix.runtime.metrics.ServerMetrics;
import io.kubelix.runtime.plugins.KubelixEndpoint;
import io.kubelix.runtime.server.healthz.VersionInfo;
import io.kubelix.runtime.shell.CommandShell;
import io.kubelix.runtime.shell.ShellEndpoint;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code POST /kubelix/shell} behind the real filter chain: authorized as verb {@code post} on its
 * path (so {@code system:masters} only, unless RBAC grants it), the session header reaching the shell,
 * a failed command flagged, and a clear 503 without Gogo.
 */
class ShellEndpointChainTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PATH = "/kubelix/shell";

    private final List<RequestInfo> asked = new CopyOnWriteArrayList<>();
    private final List<String> executed = new CopyOnWriteArrayList<>();
    private final HttpClient client = HttpClient.newHttpClient();
    private Server server;
    private URI base;

    @AfterEach
    void stop() throws Exception {
        server.stop();
    }

    @Test
    void systemMastersRunsACommandAndOthersGetKubesForbidden() throws Exception {
        serve(new ShellEndpoint(echo()));

        HttpResponse<String> ok = post("admin", "s1", "lb");
        assertEquals(200, ok.statusCode(), ok::body);
        assertEquals("ran lb\n", ok.body());
        assertEquals("text/plain; charset=utf-8", ok.headers().firstValue("content-type").orElse(""));
        assertTrue(ok.headers().firstValue("X-Kubelix-Shell-Failed").isEmpty());
        assertEquals(List.of("admin s1 lb"), executed);

        HttpResponse<String> denied = post("alice", null, "lb");
        assertEquals(403, denied.statusCode());
        JsonNode status = JSON.readTree(denied.body());
        assertEquals("Forbidden", status.path("reason").asText());
        assertEquals("forbidden: User \"alice\" cannot post path \"/kubelix/shell\"", status.path("message").asText());
        assertEquals(1, executed.size(), "a refused request runs nothing");
        RequestInfo info = asked.get(asked.size() - 1);
        assertEquals("post " + PATH + " false", info.verb() + " " + info.path() + " " + info.resourceRequest());
    }

    @Test
    void aFailedCommandIsFlaggedAndOnlyPostIsAllowed() throws Exception {
        serve(new ShellEndpoint(echo()));

        HttpResponse<String> failed = post("admin", null, "fail");
        assertEquals(200, failed.statusCode());
        assertEquals("gogo: IllegalStateException: no\n", failed.body());
        assertEquals("true", failed.headers().firstValue("X-Kubelix-Shell-Failed").orElse(""));

        HttpResponse<String> get = client.send(HttpRequest.newBuilder(base.resolve(PATH))
                .header("Authorization", "Bearer admin").GET().build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(405, get.statusCode());
        assertEquals(400, post("admin", "no spaces", "lb").statusCode());
    }

    @Test
    void withoutGogoTheAnswerIsAClearServiceUnavailable() throws Exception {
        serve(new ShellEndpoint(null));

        HttpResponse<String> r = post("admin", null, "lb");
        assertEquals(503, r.statusCode());
        JsonNode status = JSON.readTree(r.body());
        assertEquals("Status", status.path("kind").asText());
        assertEquals("ServiceUnavailable", status.path("reason").asText());
        assertEquals("the shell is not available: the Gogo runtime bundle (org.apache.felix.gogo.runtime) is not"
                + " installed and active in this framework", status.path("message").asText());
    }

    /** A shell that says what it ran; the line "fail" fails as GogoShell reports failures. */
    private CommandShell echo() {
        return (user, sessionId, line) -> {
            executed.add(user + " " + sessionId + " " + line);
            return line.equals("fail") ? new CommandShell.Result("gogo: IllegalStateException: no\n", true)
                    : new CommandShell.Result("ran " + line + "\n", false);
        };
    }

    /** Tokens name users; "admin" is in system:masters. The only authorizer has no opinion, as RBAC without a binding. */
    private void serve(KubelixEndpoint endpoint) throws Exception {
        Authenticator tokens = request -> {
            String auth = request.header("Authorization");
            if (auth == null || !auth.startsWith("Bearer ")) {
                return Optional.empty();
            }
            String name = auth.substring("Bearer ".length());
            List<String> groups = name.equals("admin")
                    ? List.of(UserInfo.SYSTEM_PRIVILEGED_GROUP, UserInfo.ALL_AUTHENTICATED)
                    : List.of(UserInfo.ALL_AUTHENTICATED);
            return Optional.of(new UserInfo(name, "", groups, Map.of()));
        };
        Authorizer noOpinion = (user, info) -> {
            asked.add(info);
            return AuthorizationDecision.noOpinion();
        };
        Director director = new Director(List::of, List::of, () -> List.of(endpoint), List.of(), new VersionInfo(),
                null);
        server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(HandlerChain.build(director,
                new Authentication(() -> List.of(tokens), () -> List.of(TokenIssuer.DEFAULT_ISSUER)),
                new UnionAuthorizer(() -> List.of(noOpinion)), false, new RequestMetrics(new ServerMetrics())));
        server.start();
        base = URI.create("http://127.0.0.1:" + connector.getLocalPort());
    }

    private HttpResponse<String> post(String user, String sessionId, String line) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(PATH)).header("Authorization", "Bearer " + user)
                .POST(HttpRequest.BodyPublishers.ofString(line));
        if (sessionId != null) {
            b.header("X-Kubelix-Shell-Session", sessionId);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
