package io.kubelix.aggregator;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AvailableConditionControllerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private HttpServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    private URI serve(int status, List<String> users) throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            users.add(exchange.getRequestHeaders().getFirst("X-Remote-User") + " "
                    + exchange.getRequestHeaders().get("X-Remote-Group"));
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        server.start();
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/apis/metrics.k8s.io/v1beta1");
    }

    @Test
    void theDiscoveryCheckPassesOnA200AsTheAggregatorInSystemMasters() throws Exception {
        List<String> users = new CopyOnWriteArrayList<>();
        assertNull(AvailableConditionController.discoveryCheck(HttpClient.newHttpClient(), serve(200, users)));
        assertFalse(users.isEmpty());
        assertEquals("system:kube-aggregator [system:masters]", users.get(0));
    }

    @Test
    void aBadStatusFailsTheCheckWithKubesMessage() throws Exception {
        URI url = serve(403, new CopyOnWriteArrayList<>());
        assertEquals("failing or missing response from " + url + ": bad status from " + url + ": 403",
                AvailableConditionController.discoveryCheck(HttpClient.newHttpClient(), url));
    }

    @Test
    void aServerThatIsNotThereFailsTheCheckWithTheDialError() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        URI url = URI.create("http://127.0.0.1:" + port + "/apis/x/v1");
        assertEquals("failing or missing response from " + url + ": Get \"" + url + "\": dial tcp 127.0.0.1:" + port
                + ": connect: connection refused", AvailableConditionController.discoveryCheck(HttpClient.newHttpClient(), url));
    }

    @Test
    void anEndpointSliceCountsWhenAReadyEndpointHasThePortName() throws Exception {
        ObjectNode ready = (ObjectNode) JSON.readTree("""
                {"endpoints":[{"addresses":["10.0.0.1"],"conditions":{"ready":true}}],"ports":[{"name":"https","port":8443}]}""");
        ObjectNode notReady = (ObjectNode) JSON.readTree("""
                {"endpoints":[{"addresses":["10.0.0.1"],"conditions":{"ready":false}}],"ports":[{"name":"https","port":8443}]}""");
        ObjectNode unknown = (ObjectNode) JSON.readTree("""
                {"endpoints":[{"addresses":["10.0.0.1"]}],"ports":[{"name":"","port":8443}]}""");
        assertTrue(AvailableConditionController.hasAvailableEndpoint("https", List.of(notReady, ready)));
        assertFalse(AvailableConditionController.hasAvailableEndpoint("https", List.of(notReady)));
        assertFalse(AvailableConditionController.hasAvailableEndpoint("other", List.of(ready)));
        assertTrue(AvailableConditionController.hasAvailableEndpoint("", List.of(unknown)));
    }
}
