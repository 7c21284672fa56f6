package io.kubelix.itest.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import javax.net.ssl.SSLContext;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A front proxy (an aggregator, an authenticating proxy) passes on the user it authenticated in
 * {@code X-Remote-*} headers, with its own client certificate of the request header CA, as
 * kube-apiserver's {@code --requestheader-*} flags configure; the same headers from anyone else
 * name nobody.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RequestHeaderIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String REVIEW = "{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"SelfSubjectReview\"}";

    private Path work;
    private TestPki frontProxy;
    private KubelixServer server;

    @BeforeAll
    void start() throws Exception {
        work = KubelixServer.workDirectory("requestheader");
        frontProxy = new TestPki(work.resolve("front-proxy")).ca("front-proxy-ca");
        frontProxy.client("proxy", "/CN=front-proxy-client");
        frontProxy.client("intruder", "/CN=intruder");
        server = KubelixServer.start(Path.of(System.getProperty("kubelix.itest.distribution")), work,
                KubectlSuite.READY_TIMEOUT,
                "--requestheader-client-ca-file", frontProxy.dir().resolve("ca.crt").toString(),
                "--requestheader-allowed-names", "front-proxy-client",
                "--requestheader-username-headers", "X-Remote-User",
                "--requestheader-group-headers", "X-Remote-Group",
                "--requestheader-extra-headers-prefix", "X-Remote-Extra-");
    }

    @AfterAll
    void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void theProxysUserIsWhoTheServerSeesAndAuthorizes() throws Exception {
        SSLContext proxy = frontProxy.clientContext("proxy", caCertificate());

        HttpResponse<String> whoami = send(proxy, "POST", "/apis/authentication.k8s.io/v1/selfsubjectreviews", REVIEW,
                "X-Remote-User", "alice", "X-Remote-Group", "devs", "X-Remote-Group", "qa",
                "X-Remote-Extra-Scopes", "read", "X-Remote-Extra-Acme.com%2fteam", "blue");
        assertEquals(201, whoami.statusCode(), whoami::body);
        JsonNode user = JSON.readTree(whoami.body()).path("status").path("userInfo");
        assertEquals("alice", user.path("username").asText(), user::toString);
        assertEquals(JSON.readTree("[\"devs\",\"qa\",\"system:authenticated\"]"), user.path("groups"));
        assertEquals(JSON.readTree("{\"scopes\":[\"read\"],\"acme.com/team\":[\"blue\"]}"), user.path("extra"));

        HttpResponse<String> secrets = send(proxy, "GET", "/api/v1/namespaces/default/secrets", null,
                "X-Remote-User", "alice");
        assertEquals(403, secrets.statusCode(), secrets::body);
        assertTrue(secrets.body().contains("secrets is forbidden: User \\\"alice\\\" cannot list resource \\\"secrets\\\""
                + " in API group \\\"\\\" in the namespace \\\"default\\\""), secrets::body);

        HttpResponse<String> asMaster = send(proxy, "GET", "/api/v1/namespaces/default/secrets", null,
                "X-Remote-User", "operator", "X-Remote-Group", "system:masters");
        assertEquals(200, asMaster.statusCode(), asMaster::body);
    }

    @Test
    void theHeadersNameNobodyWithoutAnAllowedProxyCertificate() throws Exception {
        // A certificate of the request header CA with another common name: the headers are not believed, and
        // the certificate is not of the client CA either.
        HttpResponse<String> intruder = send(frontProxy.clientContext("intruder", caCertificate()), "GET",
                "/api/v1/namespaces/default/secrets", null, "X-Remote-User", "admin", "X-Remote-Group", "system:masters");
        assertEquals(401, intruder.statusCode(), intruder::body);

        // No certificate at all: the request is anonymous, whatever the headers say.
        HttpResponse<String> anonymous = send(KubelixServer.trusting(caCertificate()), "GET",
                "/api/v1/namespaces/default/secrets", null, "X-Remote-User", "admin", "X-Remote-Group", "system:masters");
        assertEquals(403, anonymous.statusCode(), anonymous::body);
        assertTrue(anonymous.body().contains("User \\\"system:anonymous\\\""), anonymous::body);
    }

    @Test
    void usernameHeadersWithoutTheirCAFileAreRefusedAtStart() throws Exception {
        Path kubelix = server.home().resolve("bin").resolve("kubelix");
        Process p = new ProcessBuilder(kubelix.toString(), "--data-dir", work.resolve("unused").toString(),
                "--requestheader-username-headers", "X-Remote-User").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), out);
        assertEquals(2, p.exitValue(), out);
        assertTrue(out.contains("--requestheader-client-ca-file is required with --requestheader-username-headers"),
                out);
    }

    private Path caCertificate() {
        return server.dataDir().resolve("pki").resolve("ca.crt");
    }

    /** A request with repeated headers as name, value pairs (a name may come several times). */
    private HttpResponse<String> send(SSLContext tls, String method, String path, String body, String... headers)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.port() + path))
                .timeout(Duration.ofSeconds(10))
                .header("Accept", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        List<String> pairs = new ArrayList<>(List.of(headers));
        for (int i = 0; i < pairs.size(); i += 2) {
            request.header(pairs.get(i), pairs.get(i + 1));
        }
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(tls)
                .connectTimeout(Duration.ofSeconds(5)).build();
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }
}
