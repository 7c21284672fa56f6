package io.kubelix.runtime.controller.bootstrap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.support.net.CIDR;
import io.kubelix.support.net.IP;

import java.math.BigInteger;
import java.util.Collection;
import java.util.Objects;

/**
 * The {@code kubernetes} Service, Endpoints and EndpointSlice in {@code default} as kube-apiserver
 * keeps them (its {@code bootstrap-controller} and endpoint reconciler): the service on port 443
 * named {@code https}, the endpoints pointing at the advertised address of every live API server and
 * this server's secure port.
 * Each object is "as it should be" when the fields the reconciler owns match; anything else on it
 * (defaults, labels users add) is left alone.
 */
public final class KubernetesService {
    static final String NAME = "kubernetes";
    static final String NAMESPACE = "default";
    static final String PORT_NAME = "https";
    static final int SERVICE_PORT = 443;

    private final String address;
    private final int port;

    /**
     * @param address the advertised IP address
     * @param port    the secure port
     */
    KubernetesService(String address, int port) {
        this.address = address;
        this.port = port;
    }

    String address() {
        return address;
    }

    /** Whether endpoints may point at the address: kube's validation refuses loopback ones. */
    boolean publishable() {
        return !(address.startsWith("127.") || address.equals("::1") || address.equals("0:0:0:0:0:0:0:1"));
    }

    int port() {
        return port;
    }

    /** The service to create; {@code clusterIP} null lets the allocator choose. */
    ObjectNode service(String clusterIP) {
        ObjectNode svc = object("v1", "Service");
        ObjectNode labels = ((ObjectNode) svc.path("metadata")).putObject("labels");
        labels.put("component", "apiserver").put("provider", "kubernetes");
        ObjectNode spec = svc.putObject("spec");
        spec.put("type", "ClusterIP");
        if (clusterIP != null) {
            spec.put("clusterIP", clusterIP);
        }
        spec.putArray("ports").addObject().put("name", PORT_NAME).put("port", SERVICE_PORT).put("protocol", "TCP")
                .put("targetPort", port);
        spec.put("sessionAffinity", "None");
        return svc;
    }

    /** kube's getMasterServiceUpdateIfNeeded: the service with its type and ports set again, or null when they are right. */
    ObjectNode serviceUpdate(ObjectNode current) {
        JsonNode ports = current.path("spec").path("ports");
        boolean right = "ClusterIP".equals(current.path("spec").path("type").asText())
                && ports.size() == 1
                && PORT_NAME.equals(ports.get(0).path("name").asText())
                && ports.get(0).path("port").asInt() == SERVICE_PORT
                && "TCP".equals(ports.get(0).path("protocol").asText("TCP"))
                && ports.get(0).path("targetPort").asInt() == port;
        if (right) {
            return null;
        }
        ObjectNode next = current.deepCopy();
        ObjectNode spec = child(next, "spec");
        spec.put("type", "ClusterIP");
        spec.set("ports", service(null).path("spec").path("ports").deepCopy());
        return next;
    }

    /** The endpoints listing {@code ips} (sorted, distinct: the live leases') with this server's port. */
    ObjectNode endpoints(Collection<String> ips) {
        ObjectNode ep = object("v1", "Endpoints");
        ((ObjectNode) ep.path("metadata")).putObject("labels").put("endpointslice.kubernetes.io/skip-mirror", "true");
        ep.set("subsets", subsets(ips));
        return ep;
    }

    /** The endpoints with their subsets set again to list {@code ips}, or null when they are right. */
    ObjectNode endpointsUpdate(ObjectNode current, Collection<String> ips) {
        ArrayNode wanted = subsets(ips);
        if (Objects.equals(wanted, current.path("subsets"))) {
            return null;
        }
        ObjectNode next = current.deepCopy();
        next.set("subsets", wanted);
        return next;
    }

    /** The slice listing {@code ips}, one endpoint each, as kube's reconciler writes it beside the endpoints. */
    ObjectNode endpointSlice(Collection<String> ips) {
        ObjectNode slice = object("discovery.k8s.io/v1", "EndpointSlice");
        ((ObjectNode) slice.path("metadata")).putObject("labels").put("kubernetes.io/service-name", NAME);
        sliceContent(slice, ips);
        return slice;
    }

    /** The slice with its address type, endpoints and ports set again, or null when they are right. */
    ObjectNode endpointSliceUpdate(ObjectNode current, Collection<String> ips) {
        ObjectNode wanted = endpointSlice(ips);
        JsonNode endpoints = current.path("endpoints");
        JsonNode wantedEndpoints = wanted.path("endpoints");
        boolean right = wanted.path("addressType").equals(current.path("addressType"))
                && endpoints.size() == wantedEndpoints.size()
                && wanted.path("ports").equals(current.path("ports"))
                && NAME.equals(current.path("metadata").path("labels").path("kubernetes.io/service-name").asText());
        for (int i = 0; right && i < endpoints.size(); i++) {
            right = wantedEndpoints.get(i).path("addresses").equals(endpoints.get(i).path("addresses"))
                    && endpoints.get(i).path("conditions").path("ready").asBoolean(true);
        }
        if (right) {
            return null;
        }
        ObjectNode next = current.deepCopy();
        child(child(next, "metadata"), "labels").put("kubernetes.io/service-name", NAME);
        sliceContent(next, ips);
        return next;
    }

    private void sliceContent(ObjectNode slice, Collection<String> ips) {
        slice.put("addressType", address.contains(":") ? "IPv6" : "IPv4");
        ArrayNode endpoints = slice.putArray("endpoints");
        for (String ip : ips) {
            ObjectNode endpoint = endpoints.addObject();
            endpoint.putArray("addresses").add(ip);
            endpoint.putObject("conditions").put("ready", true);
        }
        slice.putArray("ports").addObject().put("name", PORT_NAME).put("port", port).put("protocol", "TCP");
    }

    private ArrayNode subsets(Collection<String> ips) {
        ArrayNode subsets = JsonNodeFactory.instance.arrayNode();
        ObjectNode subset = subsets.addObject();
        ArrayNode addresses = subset.putArray("addresses");
        ips.forEach(ip -> addresses.addObject().put("ip", ip));
        subset.putArray("ports").addObject().put("name", PORT_NAME).put("port", port).put("protocol", "TCP");
        return subsets;
    }

    private static ObjectNode child(ObjectNode parent, String name) {
        return parent.get(name) instanceof ObjectNode o ? o : parent.putObject(name);
    }

    private static ObjectNode object(String apiVersion, String kind) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("apiVersion", apiVersion).put("kind", kind);
        o.putObject("metadata").put("name", NAME).put("namespace", NAMESPACE);
        return o;
    }

    /** The first address of a CIDR (kube's service IP of {@code kubernetes}: the network address plus one), in Go's text form. */
    public static String firstAddress(String cidr) {
        CIDR range = CIDR.parseCIDRSloppy(cidr);
        if (range == null) {
            throw new IllegalArgumentException("not a CIDR: " + cidr);
        }
        IP network = range.network();
        return IP.fromBigInteger(network.toBigInteger().add(BigInteger.ONE), network.bytes().length).toString();
    }
}
