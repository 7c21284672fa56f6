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
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import io.kubelix.testing.informer.FakeInformer;
import io.kubelix.testing.informer.FakeInformerFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AvailableConditionControllerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private HttpServer server;
    private final FakeInformerFactory informers = new FakeInformerFactory();
    private final FakeInformer apiServices = informers.forResource(APIAggregator.API_SERVICES);
    private final FakeInformer services = informers.forResource(APIAggregator.SERVICES);
    private final FakeInformer slices = informers.forResource(APIServiceRESTStorageProvider.ENDPOINT_SLICES);
    /** No status store: these tests check and queue, they never write. */
    private final AvailableConditionController controller = new AvailableConditionController(informers, apiServices,
            services, slices, new ServiceResolver(services), new ProxyTransports(new ProxyClientCertificate(null, null)), null, Clock.systemUTC());

    @AfterEach
    void stop() {
        controller.stop();
        if (server != null) {
            server.stop(0);
        }
    }

    private static ObjectNode json(String text) throws Exception {
        return (ObjectNode) JSON.readTree(text.replace('\'', '"'));
    }

    private static ObjectNode apiService(String name, String namespace, String service, int port) throws Exception {
        return json("{'metadata':{'name':'" + name + "'},'spec':{'group':'metrics.k8s.io','version':'v1beta1',"
                + "'service':{'namespace':'" + namespace + "','name':'" + service + "','port':" + port + "}}}");
    }

    private static ObjectNode slice(String name, boolean ready) throws Exception {
        return json("{'metadata':{'namespace':'kube-system','name':'" + name + "','labels':{'kubernetes.io/service-name':"
                + "'metrics-server'}},'endpoints':[{'addresses':['10.0.0.9'],'conditions':{'ready':" + ready + "}}],"
                + "'ports':[{'name':'https','port':4443}]}");
    }

    private static int closedPort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @Test
    void eachCheckFindsWhatKubeFindsInItsOrder() throws Exception {
        ObjectNode metrics = apiService("v1beta1.metrics.k8s.io", "kube-system", "metrics-server", 443);
        assertEquals(new AvailableConditionController.Check("False", "ServiceNotFound",
                "service/metrics-server in \"kube-system\" is not present"), controller.check(metrics));

        services.put(json("{'metadata':{'namespace':'kube-system','name':'metrics-server'},'spec':{'type':'ClusterIP',"
                + "'clusterIP':'10.0.0.20','ports':[{'name':'https','port':8443}]}}"));
        assertEquals(new AvailableConditionController.Check("False", "ServicePortError",
                "service/metrics-server in \"kube-system\" is not listening on port 443"), controller.check(metrics));

        services.put(json("{'metadata':{'namespace':'kube-system','name':'metrics-server'},'spec':{'type':'ClusterIP',"
                + "'clusterIP':'10.0.0.20','ports':[{'name':'https','port':443}]}}"));
        assertEquals(new AvailableConditionController.Check("False", "EndpointsNotFound",
                "cannot find endpointslices for service/metrics-server in \"kube-system\""), controller.check(metrics));

        slices.put(slice("metrics-server-abc", false));
        assertEquals(new AvailableConditionController.Check("False", "MissingEndpoints",
                "endpointslices for service/metrics-server in \"kube-system\" have no addresses with port name \"https\""),
                controller.check(metrics));

        // An ExternalName service has no endpoints to look for: the discovery check is next.
        int port = closedPort();
        services.put(json("{'metadata':{'namespace':'kube-system','name':'metrics-server'},'spec':{'type':'ExternalName',"
                + "'externalName':'127.0.0.1'}}"));
        AvailableConditionController.Check failed = controller.check(apiService("v1beta1.metrics.k8s.io", "kube-system",
                "metrics-server", port));
        assertEquals("FailedDiscoveryCheck", failed.reason());
        assertTrue(failed.message().startsWith("failing or missing response from https://127.0.0.1:" + port
                + "/apis/metrics.k8s.io/v1beta1"), failed.message());
    }

    @Test
    void anAPIServiceIsCheckedAgainWhenItsServiceOrItsEndpointSlicesChange() throws Exception {
        apiServices.put(apiService("v1beta1.metrics.k8s.io", "kube-system", "metrics-server", 443));
        apiServices.put(apiService("v1beta1.custom.metrics.k8s.io", "monitoring", "adapter", 443));
        assertEquals(List.of("v1beta1.metrics.k8s.io", "v1beta1.custom.metrics.k8s.io"), informers.queued);

        informers.queued.clear();
        services.put(json("{'metadata':{'namespace':'kube-system','name':'metrics-server'},'spec':{}}"));
        services.put(json("{'metadata':{'namespace':'kube-system','name':'other'},'spec':{}}"));
        assertEquals(List.of("v1beta1.metrics.k8s.io"), informers.queued, "only the APIService of that service");

        informers.queued.clear();
        slices.put(slice("metrics-server-abc", false));
        slices.put(slice("metrics-server-abc", true));
        slices.delete("kube-system", "metrics-server-abc");
        services.delete("kube-system", "metrics-server");
        assertEquals(List.of("v1beta1.metrics.k8s.io", "v1beta1.metrics.k8s.io", "v1beta1.metrics.k8s.io",
                "v1beta1.metrics.k8s.io", "v1beta1.metrics.k8s.io"), informers.queued,
                "a slice added, changed (old and new state), deleted, and the service deleted");
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
