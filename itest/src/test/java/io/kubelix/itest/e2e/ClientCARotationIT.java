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
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The client CA bundles replaced while the server runs, as kube's DynamicFileCAContent reloads
 * them: after {@code --client-ca-file} names a new CA, kubectl with a client certificate of that CA
 * is authenticated and one of the removed CA is refused; after {@code --requestheader-client-ca-file}
 * does, a front proxy with a certificate of the new CA is believed and one of the old CA is not. The
 * server is never restarted.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClientCARotationIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration RELOAD = Duration.ofSeconds(30);

    private Path work;
    private TestPki oldClients;
    private TestPki newClients;
    private TestPki oldProxies;
    private TestPki newProxies;
    private Path clientCaFile;
    private Path requestHeaderCaFile;
    private KubelixServer server;

    @BeforeAll
    void start() throws Exception {
        work = KubelixServer.workDirectory("client-ca-rotation");
        oldClients = new TestPki(work.resolve("old-client-ca")).ca("old-client-ca");
        oldClients.client("alice", "/O=system:masters/CN=alice");
        newClients = new TestPki(work.resolve("new-client-ca")).ca("new-client-ca");
        newClients.client("alice", "/O=system:masters/CN=alice");
        oldProxies = new TestPki(work.resolve("old-front-proxy-ca")).ca("old-front-proxy-ca");
        oldProxies.client("proxy", "/CN=front-proxy-client");
        newProxies = new TestPki(work.resolve("new-front-proxy-ca")).ca("new-front-proxy-ca");
        newProxies.client("proxy", "/CN=front-proxy-client");
        Path trusted = Files.createDirectories(work.resolve("trusted"));
        clientCaFile = Files.copy(oldClients.dir().resolve("ca.crt"), trusted.resolve("client-ca.crt"));
        requestHeaderCaFile = Files.copy(oldProxies.dir().resolve("ca.crt"), trusted.resolve("front-proxy-ca.crt"));
        server = KubelixServer.start(Path.of(System.getProperty("kubelix.itest.distribution")), work,
                KubectlSuite.READY_TIMEOUT, "--client-ca-file", clientCaFile.toString(),
                "--requestheader-client-ca-file", requestHeaderCaFile.toString(),
                "--requestheader-allowed-names", "front-proxy-client",
                "--requestheader-username-headers", "X-Remote-User",
                "--requestheader-group-headers", "X-Remote-Group");
    }

    @AfterAll
    void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aClientCertificateOfTheNewClientCAIsAcceptedAndOneOfTheRemovedCANot() throws Exception {
        Kubectl oldAlice = kubectl(oldClients);
        Kubectl newAlice = kubectl(newClients);
        assertEquals("alice", whoami(oldAlice.ok("auth", "whoami", "-o", "json")));
        assertUnauthorized(newAlice.run("get", "namespaces"));

        replace(clientCaFile, newClients.dir().resolve("ca.crt"));

        server.await("a certificate of the new client CA accepted", RELOAD, () -> newAlice.run("get", "namespaces"),
                r -> r.exitCode() == 0);
        assertEquals("alice", whoami(newAlice.ok("auth", "whoami", "-o", "json")));
        assertUnauthorized(oldAlice.run("get", "namespaces"));
    }

    @Test
    void aFrontProxyOfTheNewRequestHeaderCAIsBelievedAndOneOfTheOldCANot() throws Exception {
        SSLContext oldProxy = oldProxies.clientContext("proxy", server.caCertificate());
        SSLContext newProxy = newProxies.clientContext("proxy", server.caCertificate());
        assertEquals(201, asBob(oldProxy).statusCode());
        assertEquals(401, asBob(newProxy).statusCode());

        replace(requestHeaderCaFile, newProxies.dir().resolve("ca.crt"));

        server.await("a front proxy of the new CA believed", RELOAD, () -> asBob(newProxy).statusCode(),
                status -> status == 201);
        HttpResponse<String> bob = asBob(newProxy);
        assertEquals("bob", JSON.readTree(bob.body()).path("status").path("userInfo").path("username").asText(), bob::body);
        assertEquals(401, asBob(oldProxy).statusCode());
    }

    /** Writes the new bundle beside the old and moves it over it, as a rotation tool does. */
    private static void replace(Path file, Path with) throws Exception {
        Path next = file.resolveSibling(file.getFileName() + ".next");
        Files.copy(with, next, StandardCopyOption.REPLACE_EXISTING);
        Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private Kubectl kubectl(TestPki ca) throws Exception {
        return new Kubectl(System.getProperty("kubelix.itest.kubectl", "kubectl"),
                ca.kubeconfig("alice", server.port(), server.caCertificate()), work.resolve("home"));
    }

    private static String whoami(Kubectl.Result r) throws Exception {
        JsonNode review = JSON.readTree(r.stdout());
        return review.path("status").path("userInfo").path("username").asText();
    }

    private static void assertUnauthorized(Kubectl.Result r) {
        assertNotEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stderr().contains("Unauthorized") || r.stderr().contains("must be logged in"), r::toString);
    }

    /** A SelfSubjectReview as {@code bob}, sent by a front proxy presenting the certificate of {@code tls}. */
    private HttpResponse<String> asBob(SSLContext tls) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.port()
                        + "/apis/authentication.k8s.io/v1/selfsubjectreviews"))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json").header("Accept", "application/json")
                .header("X-Remote-User", "bob").header("X-Remote-Group", "devs")
                .POST(HttpRequest.BodyPublishers.ofString(
                        "{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"SelfSubjectReview\"}"))
                .build();
        // A client per request, so each is a new TLS connection that presents its certificate again.
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(tls)
                .connectTimeout(Duration.ofSeconds(5)).build();
        return client.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }
}
