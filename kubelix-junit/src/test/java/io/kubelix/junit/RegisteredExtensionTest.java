package io.kubelix.junit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * {@link KubelixExtension} registered on a static field with a flag: the server is there for
 * {@code @BeforeAll}, and runs with the flag (AlwaysAllow, under which anonymous requests are refused).
 */
class RegisteredExtensionTest {
    @RegisterExtension
    static final KubelixExtension KUBELIX = KubelixExtension.perClass().withFlag("authorization-mode", "AlwaysAllow");

    private static KubelixServer server;

    @BeforeAll
    static void serverIsReadyBeforeTheTests(KubelixServer given) {
        assertSame(KUBELIX.server(), given);
        assertSame(given, server, "static fields are filled before @BeforeAll");
    }

    @Test
    void runsWithTheFlag() throws Exception {
        HttpClient http = HttpClient.newBuilder().sslContext(server.sslContext()).build();
        HttpResponse<String> anonymous = http.send(HttpRequest.newBuilder(server.url().resolve("api/v1/namespaces"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(401, anonymous.statusCode(), anonymous.body());
        HttpResponse<String> admin = http.send(HttpRequest.newBuilder(server.url().resolve("api/v1/namespaces"))
                .header("Authorization", "Bearer " + server.adminToken()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, admin.statusCode(), admin.body());
    }
}
