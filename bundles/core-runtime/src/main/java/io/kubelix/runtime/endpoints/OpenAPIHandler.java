package io.kubelix.runtime.endpoints;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.api.schema.GroupVersion;
import io.kubelix.api.server.DiscoverySource;
import io.kubelix.runtime.codec.Codecs;
import io.kubelix.runtime.codec.MediaType;
import io.kubelix.runtime.endpoints.openapi.OpenAPIV2;
import io.kubelix.runtime.endpoints.openapi.OpenAPIV2Negotiation;
import io.kubelix.runtime.endpoints.openapi.OpenAPIV2Protobuf;
import io.kubelix.runtime.endpoints.openapi.OpenAPIV3;
import io.kubelix.runtime.endpoints.responsewriters.Responses;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.lang.ref.WeakReference;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Serves {@code /openapi/v2}, {@code /openapi/v3} and each group version's v3 document, with
 * ETags ({@code If-None-Match} answers 304), in JSON, and v2 also in gnostic's protobuf form. The
 * documents are built once per route table: a resource bundle that comes or goes installs a new
 * table, and the next request rebuilds them.
 */
final class OpenAPIHandler {
    private static final String V2 = "/openapi/v2";
    private static final String V3 = "/openapi/v3";

    /**
     * The documents of one route table, with their ETags. The table is held weakly: it holds the
     * storages of plugins, which an update or removal must be able to unload.
     */
    private record Documents(WeakReference<RouteTable> routes, List<ObjectNode> remote, Map<String, ObjectNode> v3,
                             Map<String, String> v3Etags, ObjectNode v3Root, String v3RootEtag, ObjectNode v2,
                             String v2Etag, AtomicReference<byte[]> v2ProtobufOnce, Map<ObjectNode, byte[]> json) {

        /**
         * A document's JSON, encoded once when the documents were built: with a thousand custom
         * resource kinds a group's document is megabytes, which kube-openapi too serves from bytes
         * it keeps rather than encoding them for every client.
         */
        byte[] json(ObjectNode doc) {
            return json.get(doc);
        }

        /** The v2 document's protobuf form, encoded when first asked for: most clients read JSON. */
        byte[] v2Protobuf() {
            byte[] encoded = v2ProtobufOnce.get();
            if (encoded == null) {
                encoded = OpenAPIV2Protobuf.encode(v2);
                v2ProtobufOnce.compareAndSet(null, encoded);
            }
            return encoded;
        }
    }

    private final String serverVersion;
    private volatile Documents documents;

    OpenAPIHandler(String serverVersion) {
        this.serverVersion = serverVersion;
    }

    /**
     * @param remote the groups other links of the server chain serve: their versions' v3 documents
     *               are served beside the route table's, and merged into v2
     */
    boolean serve(RouteTable routes, List<DiscoverySource.Group> remote, Request request, Response response,
                  Callback callback, String path) {
        if (!path.equals(V2) && !path.equals(V3) && !path.startsWith(V3 + "/")) {
            return false;
        }
        if (path.equals(V2)) {
            serveV2(routes, remote, request, response, callback);
            return true;
        }
        requireJson(request);
        Documents docs = documents(routes, remote);
        String rest = path.equals(V3) ? "" : path.substring(V3.length() + 1).replaceAll("/+$", "");
        if (rest.isEmpty()) {
            write(request, response, callback, docs, docs.v3Root(), docs.v3RootEtag());
            return true;
        }
        ObjectNode doc = docs.v3().get(rest);
        if (doc == null) {
            return false;
        }
        write(request, response, callback, docs, doc, docs.v3Etags().get(rest));
        return true;
    }

    /**
     * Negotiates v2 as kube-openapi does: the first of the Accept header's ranges, by quality, that
     * names JSON or one of the protobuf types wins; none gives a bare 406. Both forms share the JSON
     * form's ETag and say that they vary by Accept.
     */
    private void serveV2(RouteTable routes, List<DiscoverySource.Group> remote, Request request, Response response,
                         Callback callback) {
        OpenAPIV2Negotiation.Format format = OpenAPIV2Negotiation.negotiate(request.getHeaders().get(HttpHeader.ACCEPT));
        response.getHeaders().add(HttpHeader.VARY, "Accept");
        if (format == null) {
            response.setStatus(406);
            callback.succeeded();
            return;
        }
        Documents docs = documents(routes, remote);
        if (format == OpenAPIV2Negotiation.Format.JSON) {
            write(request, response, callback, docs, docs.v2(), docs.v2Etag());
        } else if (!notModified(request, response, callback, docs.v2Etag())) {
            Responses.write(response, callback, 200, OpenAPIV2Negotiation.PROTOBUF, docs.v2Protobuf());
        }
    }

    /**
     * The v3 documents are JSON only: a client that accepts only their protobuf form is told 406,
     * as kube-openapi answers what it cannot give, rather than handed bytes it cannot parse.
     */
    private static void requireJson(Request request) {
        List<MediaType> ranges = MediaType.parseAccept(request.getHeaders().get(HttpHeader.ACCEPT));
        if (!ranges.isEmpty() && ranges.stream().noneMatch(MediaType::isJson)) {
            throw new StatusException(StatusReason.NOT_ACCEPTABLE, 406,
                    "only the following media types are accepted: application/json", null, null);
        }
    }

    private Documents documents(RouteTable routes, List<DiscoverySource.Group> remote) {
        // Remote documents are compared by identity: their source hands out a new one when it fetched a change.
        Map<String, ObjectNode> remoteDocs = new LinkedHashMap<>();
        for (DiscoverySource.Group g : remote) {
            for (DiscoverySource.Version v : g.versions()) {
                if (v.openAPIV3() != null && routes.group(g.name()) == null) {
                    remoteDocs.putIfAbsent(OpenAPIV3.key(new GroupVersion(g.name(), v.version())), v.openAPIV3());
                }
            }
        }
        List<ObjectNode> remoteList = List.copyOf(remoteDocs.values());
        Documents current = documents;
        if (current != null && current.routes().get() == routes && sameDocuments(current.remote(), remoteList)) {
            return current;
        }
        Map<String, ObjectNode> v3 = new LinkedHashMap<>();
        Map<String, String> etags = new LinkedHashMap<>();
        // Each document is encoded once, for its ETag, and served from those bytes.
        Map<ObjectNode, byte[]> json = new IdentityHashMap<>();
        for (RouteTable.Group g : routes.groups()) {
            for (String v : g.versions()) {
                GroupVersion gv = new GroupVersion(g.name(), v);
                ObjectNode doc = OpenAPIV3.groupVersion(gv, g.resources().get(v), serverVersion);
                v3.put(OpenAPIV3.key(gv), doc);
                etags.put(OpenAPIV3.key(gv), etag(doc, json));
            }
        }
        remoteDocs.forEach((key, doc) -> {
            v3.put(key, doc);
            etags.put(key, etag(doc, json));
        });
        ObjectNode root = OpenAPIV3.root(v3);
        ObjectNode v2 = OpenAPIV2.of(v3.values(), serverVersion);
        Documents built = new Documents(new WeakReference<>(routes), remoteList, v3, etags, root, etag(root, json), v2,
                etag(v2, json), new AtomicReference<>(), json);
        documents = built;
        return built;
    }

    private static boolean sameDocuments(List<ObjectNode> a, List<ObjectNode> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (a.get(i) != b.get(i)) {
                return false;
            }
        }
        return true;
    }

    /** The document's ETag, from its JSON, which is kept in {@code json}. */
    private static String etag(ObjectNode doc, Map<ObjectNode, byte[]> json) {
        byte[] bytes = Codecs.toJson(doc);
        json.put(doc, bytes);
        return "\"" + OpenAPIV3.hash(bytes) + "\"";
    }

    private static void write(Request request, Response response, Callback callback, Documents docs, ObjectNode doc,
                              String etag) {
        if (!notModified(request, response, callback, etag)) {
            Responses.write(response, callback, 200, "application/json", docs.json(doc));
        }
    }

    /** Sets the ETag, and answers 304 when the client has it already. */
    private static boolean notModified(Request request, Response response, Callback callback, String etag) {
        response.getHeaders().put(HttpHeader.ETAG, etag);
        if (etag.equals(request.getHeaders().get(HttpHeader.IF_NONE_MATCH))) {
            response.setStatus(304);
            callback.succeeded();
            return true;
        }
        return false;
    }
}
