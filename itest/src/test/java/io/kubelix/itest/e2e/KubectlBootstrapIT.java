package io.kubelix.itest.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubelix.itest.e2e.Kubectl.Result;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * kube-apiserver's bootstrap controllers in the full distribution, driven by the real kubectl: as
 * soon as {@code /readyz} answers 200 the system namespaces and the {@code kubernetes} Service,
 * Endpoints and EndpointSlice exist (no waiting), pointing at {@code --advertise-address} and the
 * secure port; the post-start hooks are listed by {@code /readyz?verbose}; the objects are put back
 * when deleted or changed. The methods run in order on one server.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KubectlBootstrapIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ADVERTISED = "192.0.2.10";
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private KubelixServer server;
    private Kubectl kubectl;

    @BeforeAll
    void startServer() throws Exception {
        Path work = KubelixServer.workDirectory("bootstrap");
        server = KubelixServer.start(Path.of(KubelixServer.property("kubelix.itest.distribution")), work, TIMEOUT,
                "--advertise-address", ADVERTISED);
        kubectl = server.kubectl(work);
    }

    @AfterAll
    void stopServer() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    @Order(1)
    void onceReadyTheKubernetesServiceAndTheSystemNamespacesAreThere() throws Exception {
        // No retry: the server said it was ready.
        JsonNode svc = JSON.readTree(kubectl.ok("get", "svc", "kubernetes", "-o", "json").stdout());
        assertEquals("ClusterIP", svc.path("spec").path("type").asText(), svc::toString);
        assertEquals("10.0.0.1", svc.path("spec").path("clusterIP").asText(), svc::toString);
        JsonNode port = svc.path("spec").path("ports").get(0);
        assertEquals("https", port.path("name").asText(), svc::toString);
        assertEquals(443, port.path("port").asInt(), svc::toString);
        assertEquals(server.port(), port.path("targetPort").asInt(), svc::toString);
        assertEquals("apiserver", svc.path("metadata").path("labels").path("component").asText(), svc::toString);

        JsonNode ep = JSON.readTree(kubectl.ok("get", "endpoints", "kubernetes", "-o", "json").stdout());
        JsonNode subset = ep.path("subsets").get(0);
        assertEquals(ADVERTISED, subset.path("addresses").get(0).path("ip").asText(), ep::toString);
        assertEquals(server.port(), subset.path("ports").get(0).path("port").asInt(), ep::toString);

        JsonNode slice = JSON.readTree(kubectl.ok("get", "endpointslices", "kubernetes", "-o", "json").stdout());
        assertEquals("IPv4", slice.path("addressType").asText(), slice::toString);
        assertEquals(ADVERTISED, slice.path("endpoints").get(0).path("addresses").get(0).asText(), slice::toString);
        assertEquals("kubernetes", slice.path("metadata").path("labels").path("kubernetes.io/service-name").asText());

        Result ns = kubectl.ok("get", "namespaces", "default", "kube-system", "kube-public", "kube-node-lease",
                "-o", "name");
        assertEquals(4, ns.stdout().lines().count(), ns::toString);
        kubectl.ok("create", "configmap", "first", "--from-literal=a=b");
    }

    @Test
    @Order(2)
    void readyzListsThePostStartHooks() throws Exception {
        String verbose = kubectl.ok("get", "--raw", "/readyz?verbose").stdout();
        assertTrue(verbose.contains("[+]poststarthook/bootstrap-controller ok"), verbose);
        assertTrue(verbose.contains("[+]poststarthook/start-system-namespaces-controller ok"), verbose);
        assertEquals("ok", kubectl.ok("get", "--raw", "/readyz/poststarthook/bootstrap-controller").stdout().trim());
    }

    @Test
    @Order(3)
    void theServiceAndItsEndpointsArePutBackWhenDeletedOrChanged() throws Exception {
        String uid = kubectl.ok("get", "svc", "kubernetes", "-o", "jsonpath={.metadata.uid}").stdout();
        kubectl.ok("delete", "svc", "kubernetes");
        Result back = server.await("the kubernetes service created again", TIMEOUT,
                () -> kubectl.run("get", "svc", "kubernetes", "-o", "jsonpath={.metadata.uid}"),
                r -> r.exitCode() == 0 && !r.stdout().isEmpty());
        assertNotEquals(uid, back.stdout());

        kubectl.ok("patch", "endpoints", "kubernetes", "--type=merge",
                "-p", "{\"subsets\":[{\"addresses\":[{\"ip\":\"192.0.2.99\"}],\"ports\":[{\"name\":\"https\",\"port\":1}]}]}");
        server.await("the endpoints put back", TIMEOUT,
                () -> kubectl.run("get", "endpoints", "kubernetes", "-o", "jsonpath={.subsets[0].addresses[0].ip}"),
                r -> r.exitCode() == 0 && r.stdout().equals(ADVERTISED));

        kubectl.ok("delete", "namespace", "kube-node-lease");
        server.await("namespace kube-node-lease created again", TIMEOUT,
                () -> kubectl.run("get", "namespace", "kube-node-lease", "-o", "jsonpath={.status.phase}"),
                r -> r.exitCode() == 0 && r.stdout().equals("Active"));
    }
}
