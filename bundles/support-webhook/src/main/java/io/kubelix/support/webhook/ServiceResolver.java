package io.kubelix.support.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.informer.GenericLister;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Where a webhook's {@code clientConfig.service} is (kube's endpoint service resolver): the
 * service's port of that number, then a ready endpoint of the service's EndpointSlices serving the
 * port of the same name, drawn at random; the connection goes to that address while TLS checks the
 * certificate against {@code <service>.<namespace>.svc}. An ExternalName service is its external
 * name. Admission webhooks and CRD conversion webhooks reach their services through it.
 */
public final class ServiceResolver {
    /** The label naming the service an EndpointSlice belongs to. */
    public static final String SERVICE_NAME_LABEL = "kubernetes.io/service-name";

    private final GenericLister services;
    private final GenericLister endpointSlices;

    public ServiceResolver(GenericLister services, GenericLister endpointSlices) {
        this.services = services;
        this.endpointSlices = endpointSlices;
    }

    /** @throws IllegalStateException with kube's words when the service cannot be reached */
    public URI resolve(String namespace, String name, int port) {
        Optional<ObjectNode> found = services.byNamespace(namespace).get(name);
        if (found.isEmpty()) {
            throw new IllegalStateException("service \"" + name + "\" not found");
        }
        JsonNode spec = found.get().path("spec");
        String type = spec.path("type").asText("ClusterIP");
        if (type.equals("ExternalName")) {
            return URI.create("https://" + host(spec.path("externalName").asText()) + ":" + port);
        }
        if (!type.equals("ClusterIP") && !type.equals("NodePort") && !type.equals("LoadBalancer")) {
            throw new IllegalStateException("unsupported service type \"" + type + "\"");
        }
        String portName = null;
        for (JsonNode p : spec.path("ports")) {
            if (p.path("port").asInt() == port) {
                portName = p.path("name").asText("");
                break;
            }
        }
        if (portName == null) {
            throw new IllegalStateException("no service port " + port + " found for service \"" + name + "\"");
        }
        List<URI> ready = new ArrayList<>();
        for (ObjectNode slice : endpointSlices.byNamespace(namespace).list()) {
            if (!name.equals(slice.path("metadata").path("labels").path(SERVICE_NAME_LABEL).asText())) {
                continue;
            }
            for (JsonNode p : slice.path("ports")) {
                if (!portName.equals(p.path("name").asText("")) || !p.hasNonNull("port")) {
                    continue;
                }
                for (JsonNode endpoint : slice.path("endpoints")) {
                    if (endpoint.path("conditions").path("ready").asBoolean(true)) {
                        for (JsonNode address : endpoint.path("addresses")) {
                            ready.add(URI.create("https://" + host(address.asText()) + ":" + p.path("port").asInt()));
                        }
                    }
                }
            }
        }
        if (ready.isEmpty()) {
            throw new IllegalStateException("no endpoints available for service \"" + name + "\"");
        }
        return ready.get(ThreadLocalRandom.current().nextInt(ready.size()));
    }

    private static String host(String address) {
        return address.contains(":") ? "[" + address + "]" : address;
    }
}
