package io.kubelix.aggregator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.informer.SharedIndexInformer;

import java.net.URI;

/**
 * Where the aggregator reaches a service (kube-aggregator's ServiceResolver with
 * {@code --enable-aggregator-routing=false}, kube's default): an {@code ExternalName} service at
 * {@code https://<externalName>:<port>}, any other with a cluster IP at
 * {@code https://<clusterIP>:<port>} when the service has that port. Services come from the
 * server's informer.
 */
final class ServiceResolver {
    private final SharedIndexInformer services;

    ServiceResolver(SharedIndexInformer services) {
        this.services = services;
    }

    /** The service, or null when the informer has none of that name. */
    ObjectNode service(String namespace, String name) {
        return services.getByKey(SharedIndexInformer.keyOf(namespace, name));
    }

    /**
     * The URL of the service's port (ResolveCluster).
     *
     * @throws IllegalStateException saying why it cannot be reached, as kube's resolver words it
     */
    URI resolve(String namespace, String name, int port) {
        ObjectNode service = service(namespace, name);
        if (service == null) {
            throw new IllegalStateException("service \"" + name + "\" not found");
        }
        JsonNode spec = service.path("spec");
        String type = spec.path("type").asText("ClusterIP");
        if (type.equals("ExternalName")) {
            return URI.create("https://" + host(spec.path("externalName").asText("")) + ":" + port);
        }
        String clusterIP = spec.path("clusterIP").asText("");
        if (clusterIP.isEmpty() || clusterIP.equals("None")) {
            throw new IllegalStateException("service " + namespace + "/" + name + " has no cluster IP");
        }
        for (JsonNode p : spec.path("ports")) {
            if (p.path("port").asInt(-1) == port) {
                return URI.create("https://" + host(clusterIP) + ":" + port);
            }
        }
        throw new IllegalStateException("no service port " + port + " found for service \"" + name + "\"");
    }

    private static String host(String host) {
        return host.contains(":") ? "[" + host + "]" : host;
    }
}
