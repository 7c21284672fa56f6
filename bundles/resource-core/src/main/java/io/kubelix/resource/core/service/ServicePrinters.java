package io.kubelix.resource.core.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.registry.TableColumn;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The Table columns of services and endpoints, as kube's printService and printEndpoints fill
 * them ({@code 80/TCP}, {@code 80:30080/TCP}, {@code <none>}, {@code <pending>}).
 */
final class ServicePrinters {
    static final String NONE = "<none>";
    /** kube's loadBalancerWidth: a load balancer column longer than this is cut short unless wide. */
    private static final int LOAD_BALANCER_WIDTH = 16;
    private static final int MAX_ENDPOINTS = 3;

    private ServicePrinters() {
    }

    /** NAME, TYPE, CLUSTER-IP, EXTERNAL-IP, PORT(S), AGE; -o wide adds SELECTOR. */
    static List<TableColumn> serviceColumns() {
        return List.of(TableColumn.nameColumn(),
                new TableColumn("Type", "string", "", "type determines how the Service is exposed.", 0,
                        o -> o.path("spec").path("type").asText("")),
                new TableColumn("Cluster-IP", "string", "", "clusterIP is the IP address of the service.", 0,
                        o -> orNone(o.path("spec").path("clusterIP").asText(""))),
                new TableColumn("External-IP", "string", "", "externalIPs is a list of IP addresses for which nodes "
                        + "in the cluster will also accept traffic for this service.", 0, o -> externalIP(o, false)),
                new TableColumn("Port(s)", "string", "", "The list of ports that are exposed by this service.", 0,
                        o -> ports(o.path("spec").path("ports"))),
                TableColumn.ageColumn(),
                new TableColumn("Selector", "string", "", "Route service traffic to pods with label keys and values "
                        + "matching this selector.", 1, o -> labels(o.path("spec").path("selector"))));
    }

    /** NAME, ENDPOINTS (the first three ip:port pairs), AGE. */
    static List<TableColumn> endpointsColumns() {
        return List.of(TableColumn.nameColumn(),
                new TableColumn("Endpoints", "string", "", "Endpoints of the service, as ip:port pairs.", 0,
                        o -> endpoints(o.path("subsets"))),
                TableColumn.ageColumn());
    }

    /** getServiceExternalIP. */
    static String externalIP(ObjectNode svc, boolean wide) {
        JsonNode spec = svc.path("spec");
        List<String> externalIPs = new ArrayList<>();
        spec.path("externalIPs").forEach(n -> externalIPs.add(n.asText()));
        switch (spec.path("type").asText("")) {
            case ServiceDefaults.CLUSTER_IP, ServiceDefaults.NODE_PORT -> {
                return externalIPs.isEmpty() ? NONE : String.join(",", externalIPs);
            }
            case ServiceDefaults.LOAD_BALANCER -> {
                String lb = loadBalancerStatus(svc.path("status").path("loadBalancer"), wide);
                List<String> all = new ArrayList<>();
                if (!lb.isEmpty()) {
                    all.add(lb);
                }
                all.addAll(externalIPs);
                return all.isEmpty() ? "<pending>" : String.join(",", all);
            }
            case ServiceDefaults.EXTERNAL_NAME -> {
                return spec.path("externalName").asText("");
            }
            default -> {
                return "<unknown>";
            }
        }
    }

    private static String loadBalancerStatus(JsonNode status, boolean wide) {
        List<String> points = new ArrayList<>();
        for (JsonNode ingress : status.path("ingress")) {
            String ip = ingress.path("ip").asText("");
            points.add(!ip.isEmpty() ? ip : ingress.path("hostname").asText(""));
        }
        points.removeIf(String::isEmpty);
        String r = String.join(",", points);
        if (!wide && r.length() > LOAD_BALANCER_WIDTH) {
            r = r.substring(0, LOAD_BALANCER_WIDTH - 3) + "...";
        }
        return r;
    }

    /** makePortString: {@code 80/TCP,443:30443/TCP}. */
    static String ports(JsonNode ports) {
        if (ports.isEmpty()) {
            return NONE;
        }
        List<String> out = new ArrayList<>();
        for (JsonNode p : ports) {
            String protocol = p.path("protocol").asText("TCP");
            int nodePort = p.path("nodePort").asInt(0);
            out.add(nodePort > 0 ? p.path("port").asInt() + ":" + nodePort + "/" + protocol
                    : p.path("port").asInt() + "/" + protocol);
        }
        return String.join(",", out);
    }

    /** labels.FormatLabels: {@code a=b,c=d} sorted by key, or {@code <none>}. */
    static String labels(JsonNode map) {
        if (!map.isObject() || map.isEmpty()) {
            return NONE;
        }
        Map<String, String> sorted = new TreeMap<>();
        map.fields().forEachRemaining(e -> sorted.put(e.getKey(), e.getValue().asText()));
        List<String> out = new ArrayList<>();
        sorted.forEach((k, v) -> out.add(k + "=" + v));
        return String.join(",", out);
    }

    /** formatEndpoints: up to three {@code ip:port} (or bare IPs without ports), then {@code + N more...}. */
    static String endpoints(JsonNode subsets) {
        if (subsets.isEmpty()) {
            return NONE;
        }
        List<String> list = new ArrayList<>();
        int count = 0;
        boolean more = false;
        for (JsonNode subset : subsets) {
            JsonNode addresses = subset.path("addresses");
            JsonNode ports = subset.path("ports");
            if (ports.isEmpty()) {
                count += addresses.size();
                for (JsonNode a : addresses) {
                    if (list.size() == MAX_ENDPOINTS) {
                        more = true;
                        break;
                    }
                    list.add(a.path("ip").asText(""));
                }
                continue;
            }
            for (JsonNode port : ports) {
                count += addresses.size();
                for (JsonNode a : addresses) {
                    if (list.size() == MAX_ENDPOINTS) {
                        more = true;
                        break;
                    }
                    String ip = a.path("ip").asText("");
                    String host = ip.indexOf(':') >= 0 ? "[" + ip + "]" : ip;
                    list.add(host + ":" + port.path("port").asInt());
                }
            }
        }
        String joined = String.join(",", list);
        return more ? joined + " + " + (count - MAX_ENDPOINTS) + " more..." : joined;
    }

    private static String orNone(String value) {
        return value.isEmpty() ? NONE : value;
    }
}
