package io.kubelix.aggregator;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import io.kubelix.testing.informer.FakeInformer;
import io.kubelix.testing.informer.FakeInformerFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Both of kube's routings: to the cluster IP, and with --enable-aggregator-routing to a ready endpoint of the slices. */
class ServiceResolverTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final FakeInformerFactory informers = new FakeInformerFactory();
    private final FakeInformer services = informers.forResource(APIAggregator.SERVICES);
    private final FakeInformer slices = informers.forResource(APIServiceRESTStorageProvider.ENDPOINT_SLICES);
    private final ServiceResolver cluster = new ServiceResolver(services);
    private final ServiceResolver endpoints = new ServiceResolver(services, slices, new Random(1));

    @Test
    void clusterRoutingGoesToTheClusterIP() {
        services.put(service("ClusterIP"));
        slices.put(slice("api-a", "https", "10.1.0.1", true));

        assertEquals(URI.create("https://10.0.0.20:443"), cluster.resolve("ns", "api", 443));
    }

    @Test
    void endpointRoutingPicksAmongTheReadyEndpointsOfTheServicePortsName() {
        services.put(service("ClusterIP"));
        slices.put(slice("api-a", "https", "10.1.0.1", true));
        slices.put(slice("api-b", "https", "fd00::2", null));
        slices.put(slice("api-c", "https", "10.1.0.3", false));
        slices.put(slice("api-d", "metrics", "10.1.0.4", true));
        slices.put(json("{'metadata':{'namespace':'ns','name':'other-a','labels':{'" + ServiceResolver.SERVICE_NAME_LABEL
                + "':'other'}},'ports':[{'name':'https','port':8443}],'endpoints':[{'addresses':['10.1.0.5']}]}"));

        Set<URI> picked = new HashSet<>();
        for (int i = 0; i < 50; i++) {
            picked.add(endpoints.resolve("ns", "api", 443));
        }
        assertEquals(Set.of(URI.create("https://10.1.0.1:8443"), URI.create("https://[fd00::2]:8443")), picked);
    }

    @Test
    void endpointRoutingFailsAsKubesResolveEndpointDoes() {
        assertEquals("service \"api\" not found",
                assertThrows(IllegalStateException.class, () -> endpoints.resolve("ns", "api", 443)).getMessage());

        services.put(service("ExternalName"));
        assertEquals("unsupported service type \"ExternalName\"",
                assertThrows(IllegalStateException.class, () -> endpoints.resolve("ns", "api", 443)).getMessage());

        services.put(service("ClusterIP"));
        assertEquals("no service port 444 found for service \"api\"",
                assertThrows(IllegalStateException.class, () -> endpoints.resolve("ns", "api", 444)).getMessage());
        assertEquals("no endpoints available for service \"api\"",
                assertThrows(IllegalStateException.class, () -> endpoints.resolve("ns", "api", 443)).getMessage());

        slices.put(slice("api-a", "https", "10.1.0.1", false));
        assertEquals("no endpoints available for service \"api\"",
                assertThrows(IllegalStateException.class, () -> endpoints.resolve("ns", "api", 443)).getMessage());
    }

    private static ObjectNode service(String type) {
        return json("{'metadata':{'namespace':'ns','name':'api'},'spec':{'type':'" + type + "','clusterIP':'10.0.0.20',"
                + "'externalName':'api.example.com','ports':[{'name':'https','port':443,'targetPort':8443}]}}");
    }

    /** A slice of the service {@code api} with one endpoint; {@code ready} null leaves the condition out. */
    private static ObjectNode slice(String name, String portName, String address, Boolean ready) {
        return json("{'metadata':{'namespace':'ns','name':'" + name + "','labels':{'" + ServiceResolver.SERVICE_NAME_LABEL
                + "':'api'}},'addressType':'IPv4','ports':[{'name':'" + portName + "','port':8443}],'endpoints':[{'addresses':['"
                + address + "'],'conditions':{" + (ready == null ? "" : "'ready':" + ready) + "}}]}");
    }

    private static ObjectNode json(String singleQuoted) {
        try {
            return (ObjectNode) JSON.readTree(singleQuoted.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }
}
