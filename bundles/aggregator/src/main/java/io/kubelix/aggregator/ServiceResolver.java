package io.kubelix.aggregator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.informer.SharedIndexInformer;
import io.kubelix.api.informer.SharedInformerFactory;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Where the aggregator reaches a service, as kube-aggregator's ServiceResolver does. With
 * {@code --enable-aggregator-routing=false}, kube's default (ResolveCluster): an
 * {@code ExternalName} service at {@code https://<externalName>:<port>}, any other with a cluster
 * IP at {@code https://<clusterIP>:<port>} when the service has that port. With
 * {@code --enable-aggregator-routing=true} (ResolveEndpoint): a ready endpoint of the service's
 * EndpointSlices on the port of the service port's name, picked at random, so the server reaches
 * the extension server without a service proxy in between. Services and slices come from the
 * server's informers.
 */
final class ServiceResolver {
    /** The label naming the service an EndpointSlice belongs to. */
    static final String SERVICE_NAME_LABEL = "kubernetes.io/service-name";

    private final SharedIndexInformer services;
    private final SharedIndexInformer endpointSlices;
    private final Random random;

    /** Resolves to the cluster IP (kube's default routing). */
    ServiceResolver(SharedIndexInformer services) {
        this(services, null, null);
    }

    /**
     * Resolves to a ready endpoint from {@code endpointSlices}, picked with {@code random}, or to
     * the cluster IP when {@code endpointSlices} is null.
     */
    ServiceResolver(SharedIndexInformer services, SharedIndexInformer endpointSlices, Random random) {
        this.services = services;
        this.endpointSlices = endpointSlices;
        this.random = random;
    }

    /**
     * The resolver that {@code kubelix.enable-aggregator-routing} ({@code --enable-aggregator-routing},
     * {@code true} or {@code false}, default false) asks for.
     */
    static ServiceResolver forRouting(String enableAggregatorRouting, SharedInformerFactory informers) {
        SharedIndexInformer services = informers.forResource(APIAggregator.SERVICES);
        return Boolean.parseBoolean(enableAggregatorRouting)
                ? new ServiceResolver(services, informers.forResource(APIServiceRESTStorageProvider.ENDPOINT_SLICES), new Random())
                : new ServiceResolver(services);
    }

    /** The service, or null when the informer has none of that name. */
    ObjectNode service(String namespace, String name) {
        return services.getByKey(SharedIndexInformer.keyOf(namespace, name));
    }

    /**
     * The URL to send a request for the service's port to.
     *
     * @throws IllegalStateException saying why it cannot be reached, as kube's resolver words it
     */
    URI resolve(String namespace, String name, int port) {
        ObjectNode service = service(namespace, name);
        if (service == null) {
            throw new IllegalStateException("service \"" + name + "\" not found");
        }
        return endpointSlices == null ? resolveCluster(service, namespace, name, port) : resolveEndpoint(service, namespace, name, port);
    }

    private static URI resolveCluster(ObjectNode service, String namespace, String name, int port) {
        JsonNode spec = service.path("spec");
        String type = spec.path("type").asText("ClusterIP");
        if (type.equals("ExternalName")) {
            return URI.create("https://" + host(spec.path("externalName").asText("")) + ":" + port);
        }
        String clusterIP = spec.path("clusterIP").asText("");
        if (clusterIP.isEmpty() || clusterIP.equals("None")) {
            throw new IllegalStateException("service " + namespace + "/" + name + " has no cluster IP");
        }
        servicePort(spec, name, port);
        return URI.create("https://" + host(clusterIP) + ":" + port);
    }

    /** kube's ResolveEndpoint over EndpointSlices: a ready address with the service port's name, at random. */
    private URI resolveEndpoint(ObjectNode service, String namespace, String name, int port) {
        JsonNode spec = service.path("spec");
        String type = spec.path("type").asText("ClusterIP");
        if (!type.equals("ClusterIP") && !type.equals("LoadBalancer") && !type.equals("NodePort")) {
            throw new IllegalStateException("unsupported service type \"" + type + "\"");
        }
        String portName = servicePort(spec, name, port).path("name").asText("");
        List<URI> ready = new ArrayList<>();
        for (ObjectNode slice : endpointSlices.lister().byNamespace(namespace).list()) {
            if (!name.equals(slice.path("metadata").path("labels").path(SERVICE_NAME_LABEL).asText(null))) {
                continue;
            }
            for (JsonNode p : slice.path("ports")) {
                if (!p.path("name").asText("").equals(portName) || !p.hasNonNull("port")) {
                    continue;
                }
                for (JsonNode e : slice.path("endpoints")) {
                    JsonNode r = e.path("conditions").get("ready");
                    JsonNode addresses = e.path("addresses");
                    if ((r == null || r.isNull() || r.asBoolean()) && addresses.size() > 0) {
                        ready.add(URI.create("https://" + host(addresses.get(0).asText()) + ":" + p.path("port").asInt()));
                    }
                }
            }
        }
        if (ready.isEmpty()) {
            throw new IllegalStateException("no endpoints available for service \"" + name + "\"");
        }
        return ready.get(random.nextInt(ready.size()));
    }

    /** findServicePort: the service's port of that number. */
    private static JsonNode servicePort(JsonNode spec, String name, int port) {
        for (JsonNode p : spec.path("ports")) {
            if (p.path("port").asInt(-1) == port) {
                return p;
            }
        }
        throw new IllegalStateException("no service port " + port + " found for service \"" + name + "\"");
    }

    private static String host(String host) {
        return host.contains(":") ? "[" + host + "]" : host;
    }
}
