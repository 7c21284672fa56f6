package io.kubelix.runtime.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.kubelix.api.authn.Authenticator;
import io.kubelix.api.authn.TokenIssuer;
import io.kubelix.api.authz.AuthorizationDecision;
import io.kubelix.api.authz.Authorizer;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.runtime.metrics.RequestMetrics;
import io.kubelix.runtime.metrics.ServerMetrics;
import io.kubelix.runtime.request.Requests;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The filters of DefaultBuildHandlerChain around a trivial handler, over real HTTP. */
class HandlerChainTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CONFIGMAPS = "/api/v1/namespaces/default/configmaps";

    private final List<Authenticator> authenticators = new CopyOnWriteArrayList<>();
    private final List<Authorizer> authorizers = new CopyOnWriteArrayList<>();
    private final List<RequestInfo> authorized = new CopyOnWriteArrayList<>();
    private final List<UserInfo> seenUsers = new CopyOnWriteArrayList<>();
    private final List<String> seenHeaders = new CopyOnWriteArrayList<>();
    private final HttpClient client = HttpClient.newHttpClient();
    private Server server;
    private final ServerMetrics metrics = new ServerMetrics();
    private URI base;

    @BeforeEach
    void start() throws Exception {
        authenticators.add(request -> {
            String auth = request.header("Authorization");
            if (auth == null || !auth.startsWith("Bearer ")) {
                return Optional.empty();
            }
            String token = auth.substring("Bearer ".length());
            if (token.equals("wrong")) {
                throw StatusException.unauthorized("Unauthorized");
            }
            return token.startsWith("user-")
                    ? Optional.of(new UserInfo(token.substring(5), "", List.of(UserInfo.ALL_AUTHENTICATED), Map.of()))
                    : Optional.empty();
        });
        serve(false);
    }

    private void serve(boolean anonymous) throws Exception {
        server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(HandlerChain.build(new Echo(),
                new Authentication(() -> authenticators, () -> List.of(TokenIssuer.DEFAULT_ISSUER)),
                new UnionAuthorizer(() -> authorizers), anonymous, new RequestMetrics(metrics)));
        server.start();
        base = URI.create("http://127.0.0.1:" + connector.getLocalPort());
    }

    private void serveWithAnonymous() throws Exception {
        server.stop();
        serve(true);
    }

    @Test
    void withAnonymousRequestsWithoutCredentialsAreAuthorizedAsSystemAnonymous() throws Exception {
        serveWithAnonymous();
        authorizers.add((user, info) -> user.groups().contains(UserInfo.ALL_UNAUTHENTICATED)
                && info.path().equals("/version") ? AuthorizationDecision.allow("") : AuthorizationDecision.noOpinion());

        HttpResponse<String> version = get("/version", null);
        assertEquals(200, version.statusCode());
        assertEquals("system:anonymous get /version", version.body());

        HttpResponse<String> secrets = get("/api/v1/secrets", null);
        assertEquals(403, secrets.statusCode(), "anonymous, not 401: it presented no credentials");
        assertEquals("secrets is forbidden: User \"system:anonymous\" cannot list resource \"secrets\" in API group"
                + " \"\" at the cluster scope", JSON.readTree(secrets.body()).path("message").asText());

        assertEquals(401, get("/api/v1/secrets", "someone-elses-token").statusCode(),
                "credentials nobody recognises are still refused");
    }

    @Test
    void withAnonymousHealthIsAlwaysAllowedAndVersionIsAuthorized() throws Exception {
        serveWithAnonymous();
        assertEquals(200, get("/readyz/ping", null).statusCode());
        assertTrue(authorized.isEmpty(), "health needs no authorizer");
        assertEquals(403, get("/version", null).statusCode(), "nothing allows version here");
    }

    @Test
    void impersonationActsAsTheUserWhenEveryPartIsAllowed() throws Exception {
        List<String> impersonated = new CopyOnWriteArrayList<>();
        authorizers.add((user, info) -> {
            if (info.verb().equals("impersonate")) {
                impersonated.add(info.apiGroup() + "/" + info.resource() + "/" + info.subresource() + ":"
                        + info.namespace() + "/" + info.name());
                return user.name().equals("admin") ? AuthorizationDecision.allow("") : AuthorizationDecision.noOpinion();
            }
            return AuthorizationDecision.allow("");
        });

        HttpResponse<String> r = send(CONFIGMAPS, "user-admin", "Impersonate-User", "bob", "Impersonate-Group", "devs",
                "Impersonate-Group", "ops", "Impersonate-Extra-Scopes%2fa", "x", "Impersonate-Uid", "42");

        assertEquals(200, r.statusCode(), r::body);
        assertEquals("bob list " + CONFIGMAPS, r.body());
        assertEquals(List.of("/users/:/bob", "/groups/:/devs", "/groups/:/ops",
                "authentication.k8s.io/userextras/scopes/a:/x", "authentication.k8s.io/uids/:/42"), impersonated);
        UserInfo bob = seenUsers.get(seenUsers.size() - 1);
        assertEquals(List.of("devs", "ops", UserInfo.ALL_AUTHENTICATED), bob.groups());
        assertEquals("42", bob.uid());
        assertEquals(Map.of("scopes/a", List.of("x")), bob.extra());
        assertFalse(seenHeaders.get(seenHeaders.size() - 1).contains("Impersonate"), "headers are removed");

        HttpResponse<String> sa = send(CONFIGMAPS, "user-admin", "Impersonate-User", "system:serviceaccount:apps:bot");
        assertEquals(200, sa.statusCode(), sa::body);
        assertEquals("/serviceaccounts/:apps/bot", impersonated.get(impersonated.size() - 1));
        assertEquals(List.of("system:serviceaccounts", "system:serviceaccounts:apps", UserInfo.ALL_AUTHENTICATED),
                seenUsers.get(seenUsers.size() - 1).groups());
    }

    @Test
    void impersonationNotAllowedIsForbiddenAndGroupsAloneAreABadRequest() throws Exception {
        authorizers.add((user, info) -> info.verb().equals("impersonate") ? AuthorizationDecision.noOpinion()
                : AuthorizationDecision.allow(""));

        HttpResponse<String> r = send(CONFIGMAPS, "user-alice", "Impersonate-User", "bob");
        assertEquals(403, r.statusCode(), r::body);
        assertEquals("users \"bob\" is forbidden: User \"alice\" cannot impersonate resource \"users\" in API group"
                + " \"\" at the cluster scope", JSON.readTree(r.body()).path("message").asText());

        assertEquals(400, send(CONFIGMAPS, "user-alice", "Impersonate-Group", "devs").statusCode());
    }

    @Test
    void systemMastersIsAllowedWhateverTheAuthorizersSay() throws Exception {
        authenticators.add(0, request -> "Bearer root".equals(request.header("Authorization"))
                ? Optional.of(new UserInfo("root", "", List.of(UserInfo.SYSTEM_PRIVILEGED_GROUP,
                        UserInfo.ALL_AUTHENTICATED), Map.of()))
                : Optional.empty());
        authorizers.add((user, info) -> AuthorizationDecision.deny("nobody"));

        assertEquals(200, get(CONFIGMAPS, "root").statusCode());
        assertEquals(403, get(CONFIGMAPS, "user-x").statusCode());
    }

    @Test
    void theReasonsOfAuthorizersWithoutOpinionFollowTheMessage() throws Exception {
        authorizers.add((user, info) -> new AuthorizationDecision(AuthorizationDecision.Decision.NO_OPINION,
                "RBAC: role.rbac.authorization.k8s.io \"gone\" not found"));
        authorizers.add((user, info) -> AuthorizationDecision.noOpinion());

        HttpResponse<String> r = get(CONFIGMAPS, "user-x");

        assertEquals(403, r.statusCode());
        assertTrue(JSON.readTree(r.body()).path("message").asText().endsWith("in the namespace \"default\": RBAC: "
                + "role.rbac.authorization.k8s.io \"gone\" not found"), r.body());
    }

    @Test
    void theAuditFilterSeesTheAuthenticatedUserTheImpersonatedOneTheDecisionAndFailedAuthentication() throws Exception {
        server.stop();
        List<io.kubelix.runtime.audit.Event> events = new CopyOnWriteArrayList<>();
        io.kubelix.runtime.audit.AuditBackend collecting = new io.kubelix.runtime.audit.AuditBackend() {
            @Override
            public boolean processEvents(List<io.kubelix.runtime.audit.Event> batch) {
                events.addAll(batch);
                return true;
            }

            @Override
            public void shutdown() {
            }
        };
        var policy = io.kubelix.runtime.audit.PolicyReader.parse(("apiVersion: audit.k8s.io/v1\nkind: Policy\n"
                + "rules:\n- level: Metadata\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(HandlerChain.build(new Echo(),
                new Authentication(() -> authenticators, () -> List.of(TokenIssuer.DEFAULT_ISSUER)),
                new UnionAuthorizer(() -> authorizers), false, new RequestMetrics(metrics), HandlerChain.Limits.NONE,
                new io.kubelix.runtime.audit.AuditOptions.Audit(new io.kubelix.runtime.audit.PolicyRuleEvaluator(policy),
                        collecting, new io.kubelix.runtime.metrics.AuditMetrics(metrics))));
        server.start();
        base = URI.create("http://127.0.0.1:" + connector.getLocalPort());
        authorizers.add((user, info) -> user.name().equals("admin") || info.verb().equals("list")
                ? AuthorizationDecision.allow("allowed by test") : AuthorizationDecision.noOpinion());

        HttpResponse<String> r = send(CONFIGMAPS, "user-admin", "Impersonate-User", "bob");
        assertEquals(200, r.statusCode(), r::body);
        String id = r.headers().firstValue("Audit-ID").orElseThrow();
        awaitCount(events, 2);
        List<io.kubelix.runtime.audit.Event> mine = events.stream().filter(e -> e.auditID().equals(id)).toList();
        assertEquals(2, mine.size(), events::toString);
        io.kubelix.runtime.audit.Event complete = mine.get(1);
        assertEquals("admin", complete.user().name());
        assertEquals("bob", complete.impersonatedUser().name());
        assertEquals(Map.of("authorization.k8s.io/decision", "allow", "authorization.k8s.io/reason", "allowed by test"),
                complete.annotations());
        assertEquals(200, complete.responseStatus().code());

        HttpResponse<String> denied = get(CONFIGMAPS + "/x", "user-alice");
        assertEquals(403, denied.statusCode());
        awaitCount(events, 4);
        io.kubelix.runtime.audit.Event forbidden = events.get(events.size() - 1);
        assertEquals("forbid", forbidden.annotations().get("authorization.k8s.io/decision"));
        assertEquals("Forbidden", forbidden.responseStatus().reason());
        assertEquals(403, forbidden.responseStatus().code());

        events.clear();
        HttpResponse<String> unauthorized = get(CONFIGMAPS, "someone-elses-token");
        assertEquals(401, unauthorized.statusCode());
        awaitCount(events, 1);
        Thread.sleep(100);
        assertEquals(1, events.size(), events::toString);
        assertEquals(io.kubelix.runtime.audit.Stage.ResponseStarted, events.get(0).stage());
        assertEquals(null, events.get(0).user());
        assertEquals(401, events.get(0).responseStatus().code());
        assertEquals(unauthorized.headers().firstValue("Audit-ID").orElseThrow(), events.get(0).auditID());
    }

    @AfterEach
    void stop() throws Exception {
        server.stop();
    }

    @Test
    void noCredentialsIsUnauthorized() throws Exception {
        authorizers.add(allowAll());

        HttpResponse<String> r = get(CONFIGMAPS, null);

        assertEquals(401, r.statusCode());
        assertEquals("application/json", r.headers().firstValue("Content-Type").orElse(""));
        JsonNode status = JSON.readTree(r.body());
        assertEquals("Status", status.path("kind").asText());
        assertEquals("v1", status.path("apiVersion").asText());
        assertEquals("Failure", status.path("status").asText());
        assertEquals("Unauthorized", status.path("message").asText());
        assertEquals("Unauthorized", status.path("reason").asText());
        assertEquals(401, status.path("code").asInt());
    }

    @Test
    void credentialsNoAuthenticatorKnowsAreUnauthorized() throws Exception {
        authorizers.add(allowAll());

        assertEquals(401, get(CONFIGMAPS, "someone-elses-token").statusCode());
        assertEquals(401, get(CONFIGMAPS, "wrong").statusCode());
    }

    @Test
    void healthAndVersionPassWithoutCredentialsAsAnonymous() throws Exception {
        for (String path : List.of("/healthz", "/livez", "/readyz", "/readyz/ping", "/version")) {
            HttpResponse<String> r = get(path, null);

            assertEquals(200, r.statusCode(), path);
            assertEquals("system:anonymous get " + path, r.body());
        }
        assertTrue(authorized.isEmpty(), "public paths need no authorizer");
    }

    @Test
    void pathsThatOnlyStartLikePublicOnesNeedCredentials() throws Exception {
        assertEquals(401, get("/healthzz", null).statusCode());
        assertEquals(401, get("/versions", null).statusCode());
    }

    @Test
    void authenticatedAndAllowed() throws Exception {
        authorizers.add(allowAll());

        HttpResponse<String> r = get(CONFIGMAPS + "?watch=true", "user-alice");

        assertEquals(200, r.statusCode());
        assertEquals("alice watch " + CONFIGMAPS, r.body());
        RequestInfo info = authorized.get(0);
        assertEquals("watch", info.verb());
        assertEquals("configmaps", info.resource());
        assertEquals("default", info.namespace());
    }

    @Test
    void denyIsForbiddenWithKubesMessage() throws Exception {
        authorizers.add((user, info) -> AuthorizationDecision.deny(""));

        HttpResponse<String> r = get(CONFIGMAPS, "user-x");

        assertEquals(403, r.statusCode());
        JsonNode status = JSON.readTree(r.body());
        assertEquals("Forbidden", status.path("reason").asText());
        assertEquals(403, status.path("code").asInt());
        assertEquals("configmaps is forbidden: User \"x\" cannot list resource \"configmaps\" in API group \"\" "
                + "in the namespace \"default\"", status.path("message").asText());
        assertEquals("configmaps", status.path("details").path("kind").asText());
    }

    @Test
    void noAuthorizerIsForbidden() throws Exception {
        HttpResponse<String> r = get(CONFIGMAPS, "user-x");

        assertEquals(403, r.statusCode());
        assertEquals("Forbidden", JSON.readTree(r.body()).path("reason").asText());
    }

    @Test
    void everyAuthorizerWithoutOpinionIsForbidden() throws Exception {
        authorizers.add((user, info) -> AuthorizationDecision.noOpinion());

        assertEquals(403, get(CONFIGMAPS, "user-x").statusCode());
    }

    @Test
    void firstDecisionWinsInOrder() throws Exception {
        authorizers.add((user, info) -> AuthorizationDecision.noOpinion());
        authorizers.add((user, info) -> user.name().equals("admin") ? AuthorizationDecision.allow("")
                : AuthorizationDecision.deny("only admin"));
        authorizers.add(allowAll());

        assertEquals(200, get(CONFIGMAPS, "user-admin").statusCode());
        HttpResponse<String> r = get(CONFIGMAPS, "user-bob");
        assertEquals(403, r.statusCode(), "a DENY is not overridden by a later ALLOW");
        assertTrue(JSON.readTree(r.body()).path("message").asText().endsWith(": only admin"), r.body());
    }

    @Test
    void exceptionInTheHandlerIsInternalError() throws Exception {
        authorizers.add(allowAll());

        HttpResponse<String> r = get("/api/v1/namespaces/default/configmaps/boom", "user-x");

        assertEquals(500, r.statusCode());
        JsonNode status = JSON.readTree(r.body());
        assertEquals("Status", status.path("kind").asText());
        assertEquals("InternalError", status.path("reason").asText());
        assertEquals(500, status.path("code").asInt());
        assertFalse(status.path("message").asText().contains("secret detail"), "the exception's text stays in the log");
    }

    @Test
    void statusExceptionInTheHandlerKeepsItsCode() throws Exception {
        authorizers.add(allowAll());

        HttpResponse<String> r = get("/api/v1/namespaces/default/configmaps/conflict", "user-x");

        assertEquals(409, r.statusCode());
        JsonNode status = JSON.readTree(r.body());
        assertEquals("Conflict", status.path("reason").asText());
        assertEquals(409, status.path("code").asInt());
        assertEquals("Operation cannot be fulfilled on configmaps \"conflict\": busy", status.path("message").asText());
        assertEquals("conflict", status.path("details").path("name").asText());
    }

    @Test
    void statusIsYamlWhenTheClientPrefersYaml() throws Exception {
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(base.resolve(CONFIGMAPS))
                .header("Accept", "application/yaml").GET().build(), HttpResponse.BodyHandlers.ofString());

        assertEquals(401, r.statusCode());
        assertEquals("application/yaml", r.headers().firstValue("Content-Type").orElse(""));
        JsonNode status = new ObjectMapper(new YAMLFactory()).readTree(r.body());
        assertEquals("Unauthorized", status.path("reason").asText());
        assertEquals(401, status.path("code").asInt());
    }

    private static void awaitCount(List<?> list, int n) throws InterruptedException {
        for (int i = 0; i < 500 && list.size() < n; i++) {
            Thread.sleep(10);
        }
    }

    private HttpResponse<String> get(String path, String token) throws Exception {
        return send(path, token);
    }

    /** A GET with the token and the extra headers, given as name, value, name, value... */
    private HttpResponse<String> send(String path, String token, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).GET();
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private Authorizer allowAll() {
        return (user, info) -> {
            authorized.add(info);
            return AuthorizationDecision.allow("");
        };
    }

    /** Answers "user verb path"; the names "boom" and "conflict" fail. */
    /** Answers who asked what, and notes the user and header names the handler saw. */
    private final class Echo extends Handler.Abstract {
        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            RequestInfo info = Requests.requestInfo(request);
            if (info.name().equals("boom")) {
                throw new IllegalStateException("secret detail");
            }
            if (info.name().equals("conflict")) {
                throw StatusException.conflict(GroupResource.of("", info.resource()), info.name(), "busy");
            }
            seenUsers.add(Requests.user(request));
            seenHeaders.add(request.getHeaders().getFieldNamesCollection().toString());
            String body = Requests.user(request).name() + " " + info.verb() + " " + info.path();
            response.setStatus(200);
            response.write(true, ByteBuffer.wrap(body.getBytes(StandardCharsets.UTF_8)), callback);
            return true;
        }
    }
}
