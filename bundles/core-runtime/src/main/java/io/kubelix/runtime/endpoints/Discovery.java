package io.kubelix.runtime.endpoints;

import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.schema.GroupVersion;
import io.kubelix.api.server.DiscoverySource;
import io.kubelix.runtime.codec.Codecs;
import io.kubelix.runtime.codec.MediaType;
import io.kubelix.runtime.endpoints.discovery.DiscoveryDocuments;
import io.kubelix.runtime.endpoints.discovery.DiscoveryDocuments.GroupEntry;
import io.kubelix.runtime.endpoints.discovery.DiscoveryOrder;
import io.kubelix.runtime.endpoints.openapi.OpenAPIV3;
import io.kubelix.runtime.endpoints.responsewriters.Responses;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.lang.ref.WeakReference;
import java.util.List;
import java.util.Map;

/**
 * Serves discovery from the route table: {@code /api}, {@code /api/v1}, {@code /apis},
 * {@code /apis/<group>}, {@code /apis/<group>/<version>}; {@code /api} and {@code /apis} answer
 * the aggregated APIGroupDiscoveryList when the Accept header asks for it.
 */
final class Discovery {
    private static final String AGGREGATED_GROUP = "apidiscovery.k8s.io";

    /**
     * The aggregated documents last served, by path and version, as JSON with their ETags:
     * clients fetch them at every start (kubectl at every command without a cache), and with a
     * thousand custom resource kinds building one is hundreds of milliseconds. A document is
     * built again when the route table, the other links' groups or the order changes.
     */
    private static final Map<String, Aggregated> AGGREGATED = new java.util.concurrent.ConcurrentHashMap<>();

    /** One aggregated document and what it was built from; the route table is held weakly, as it holds plugins' storages. */
    private record Aggregated(WeakReference<RouteTable> routes, List<DiscoverySource.Group> remote, DiscoveryOrder order,
                              byte[] json, String etag) {
        boolean builtFrom(RouteTable r, List<DiscoverySource.Group> rem, DiscoveryOrder o) {
            return routes.get() == r && remote.equals(rem) && order.equals(o);
        }
    }

    private Discovery() {
    }

    /**
     * @param remote the groups other links of the server chain serve, listed in {@code /apis} with the route table's
     * @param order    the order of the groups and versions, from the discovery sources' priorities
     * @return false for paths that are not discovery paths of groups served here
     */
    static boolean serve(RouteTable routes, List<DiscoverySource.Group> remote, DiscoveryOrder order, Request request,
                         Response response, Callback callback) {
        String method = request.getMethod();
        if (!method.equals("GET") && !method.equals("HEAD")) {
            return false;
        }
        String path = Request.getPathInContext(request);
        String[] parts = path.replaceAll("^/+|/+$", "").split("/");
        if (parts[0].equals("api")) {
            RouteTable.Group core = routes.group("");
            if (core == null) {
                return false;
            }
            if (parts.length == 1) {
                if (serveAggregated(request, response, callback, routes, "/api", List.of(entry(core)), List.of(),
                        DiscoveryOrder.NONE)) {
                    return true;
                }
                Responses.writeObject(request, response, callback, 200,
                        DiscoveryDocuments.apiVersions(core.versions(), serverAddress(request)));
                return true;
            }
            if (parts.length == 2) {
                return resourceList(routes, new GroupVersion("", parts[1]), request, response, callback);
            }
            return false;
        }
        if (!parts[0].equals("apis")) {
            return false;
        }
        List<GroupEntry> groups = routes.groups().stream().filter(g -> !g.name().isEmpty()).map(Discovery::entry).toList();
        if (parts.length == 1) {
            if (!serveAggregated(request, response, callback, routes, "/apis", groups, remote, order)) {
                Responses.writeObject(request, response, callback, 200, DiscoveryDocuments.apiGroupList(groups, remote, order));
            }
            return true;
        }
        RouteTable.Group group = routes.group(parts[1]);
        if (group == null || parts[1].isEmpty()) {
            return false;
        }
        if (parts.length == 2) {
            Responses.writeObject(request, response, callback, 200, DiscoveryDocuments.apiGroup(entry(group), order));
            return true;
        }
        if (parts.length == 3) {
            return resourceList(routes, new GroupVersion(parts[1], parts[2]), request, response, callback);
        }
        return false;
    }

    private static boolean resourceList(RouteTable routes, GroupVersion gv, Request request, Response response,
                                        Callback callback) {
        Map<String, RESTStorage> resources = routes.resources(gv);
        if (resources == null) {
            return false;
        }
        Responses.writeObject(request, response, callback, 200, DiscoveryDocuments.apiResourceList(gv, resources));
        return true;
    }

    /** Answers with the aggregated document when the client's first acceptable choice is one. */
    private static boolean serveAggregated(Request request, Response response, Callback callback, RouteTable routes,
                                           String path, List<GroupEntry> groups, List<DiscoverySource.Group> remote,
                                           DiscoveryOrder order) {
        for (MediaType m : MediaType.parseAccept(request.getHeaders().get(HttpHeader.ACCEPT))) {
            if ("APIGroupDiscoveryList".equals(m.param("as")) && AGGREGATED_GROUP.equals(m.param("g"))
                    && m.type().equals(MediaType.JSON)) {
                String v = m.param("v");
                if ("v2".equals(v) || "v2beta1".equals(v)) {
                    response.getHeaders().put(HttpHeader.VARY, "Accept");
                    Aggregated doc = AGGREGATED.get(path + " " + v);
                    if (doc == null || !doc.builtFrom(routes, remote, order)) {
                        byte[] json = Codecs.toJson(DiscoveryDocuments.aggregated(groups, remote, order, v));
                        doc = new Aggregated(new WeakReference<>(routes), remote, order, json,
                                "\"" + OpenAPIV3.hash(json) + "\"");
                        AGGREGATED.put(path + " " + v, doc);
                    }
                    // As kube's aggregated discovery handler: an ETag, and 304 for a client that has the document.
                    response.getHeaders().put(HttpHeader.ETAG, doc.etag());
                    if (doc.etag().equals(request.getHeaders().get(HttpHeader.IF_NONE_MATCH))) {
                        response.setStatus(304);
                        callback.succeeded();
                        return true;
                    }
                    Responses.write(response, callback, 200, "application/json;g=" + AGGREGATED_GROUP + ";v=" + v
                            + ";as=APIGroupDiscoveryList", doc.json());
                    return true;
                }
                continue;
            }
            if (m.isJson() || m.isYaml()) {
                return false;
            }
        }
        return false;
    }

    private static GroupEntry entry(RouteTable.Group g) {
        return new GroupEntry(g.name(), g.versions(), g.resources());
    }

    private static String serverAddress(Request request) {
        String host = Request.getLocalAddr(request);
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + Request.getLocalPort(request);
    }
}
