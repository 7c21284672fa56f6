package io.kubelix.itest.e2e;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An extension API server as metrics-server is one, reduced to what {@code kubectl top} reads:
 * HTTPS on a free loopback port (a certificate of its own CA, which the APIService does not verify,
 * as metrics-server's is registered), {@code metrics.k8s.io/v1beta1}'s discovery document, and
 * NodeMetrics and PodMetrics of fixed usage, listed or one by name.
 */
final class MetricsAPIServer implements AutoCloseable {
    static final String GROUP_VERSION = "metrics.k8s.io/v1beta1";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern NODES = Pattern.compile("/apis/metrics\\.k8s\\.io/v1beta1/nodes(?:/([^/]+))?");
    private static final Pattern PODS = Pattern.compile("/apis/metrics\\.k8s\\.io/v1beta1/namespaces/([^/]+)/pods(?:/([^/]+))?");

    /** A container's usage, in Kubernetes quantities. */
    record Usage(String cpu, String memory) {
    }

    /** A pod's metrics: its namespace, name and containers' usage by name. */
    record Pod(String namespace, String name, Map<String, Usage> containers) {
    }

    private final Map<String, Usage> nodes;
    private final List<Pod> pods;
    private final HttpsServer server;

    MetricsAPIServer(Path dir, Map<String, Usage> nodes, List<Pod> pods) throws Exception {
        this.nodes = nodes;
        this.pods = pods;
        TestPki pki = new TestPki(dir).ca("metrics-ca");
        pki.server("metrics");
        server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(pki.serverContext("metrics")));
        server.createContext("/", this::serve);
        server.start();
    }

    int port() {
        return server.getAddress().getPort();
    }

    private void serve(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath().replaceAll("/+$", "");
        Matcher nodePath = NODES.matcher(path);
        Matcher podPath = PODS.matcher(path);
        ObjectNode body = null;
        if (path.equals("/apis/" + GROUP_VERSION)) {
            body = discovery();
        } else if (nodePath.matches()) {
            body = one(nodeMetrics(nodePath.group(1)), "NodeMetrics", nodePath.group(1));
        } else if (podPath.matches()) {
            body = one(podMetrics(podPath.group(1), podPath.group(2)), "PodMetrics", podPath.group(2));
        }
        if (body == null) {
            exchange.sendResponseHeaders(404, -1);
            exchange.close();
            return;
        }
        byte[] bytes = JSON.writeValueAsBytes(body);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    private static ObjectNode discovery() {
        ObjectNode list = JSON.createObjectNode().put("kind", "APIResourceList").put("apiVersion", "v1")
                .put("groupVersion", GROUP_VERSION);
        ArrayNode resources = list.putArray("resources");
        resources.addObject().put("name", "nodes").put("singularName", "").put("namespaced", false)
                .put("kind", "NodeMetrics").putArray("verbs").add("get").add("list");
        resources.addObject().put("name", "pods").put("singularName", "").put("namespaced", true)
                .put("kind", "PodMetrics").putArray("verbs").add("get").add("list");
        return list;
    }

    /** The list, or with a name its one item as a {@code kind} (null when there is none of that name). */
    private static ObjectNode one(ObjectNode list, String kind, String name) {
        if (name == null) {
            return list;
        }
        if (list.path("items").isEmpty()) {
            return null;
        }
        ObjectNode item = (ObjectNode) list.path("items").get(0);
        return JSON.createObjectNode().put("kind", kind).put("apiVersion", GROUP_VERSION).setAll(item);
    }

    private ObjectNode nodeMetrics(String only) {
        ObjectNode list = list("NodeMetricsList");
        nodes.forEach((name, usage) -> {
            if (only == null || only.equals(name)) {
                ObjectNode item = item(list, name, null);
                item.putObject("usage").put("cpu", usage.cpu()).put("memory", usage.memory());
            }
        });
        return list;
    }

    private ObjectNode podMetrics(String namespace, String only) {
        ObjectNode list = list("PodMetricsList");
        for (Pod pod : pods) {
            if (pod.namespace().equals(namespace) && (only == null || only.equals(pod.name()))) {
                ArrayNode containers = item(list, pod.name(), namespace).putArray("containers");
                pod.containers().forEach((name, usage) -> containers.addObject().put("name", name).putObject("usage")
                        .put("cpu", usage.cpu()).put("memory", usage.memory()));
            }
        }
        return list;
    }

    private static ObjectNode list(String kind) {
        ObjectNode list = JSON.createObjectNode().put("kind", kind).put("apiVersion", GROUP_VERSION);
        list.putObject("metadata");
        list.putArray("items");
        return list;
    }

    private static ObjectNode item(ObjectNode list, String name, String namespace) {
        ObjectNode item = ((ArrayNode) list.get("items")).addObject();
        ObjectNode meta = item.putObject("metadata").put("name", name);
        if (namespace != null) {
            meta.put("namespace", namespace);
        }
        item.put("timestamp", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString()).put("window", "10s");
        return item;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
