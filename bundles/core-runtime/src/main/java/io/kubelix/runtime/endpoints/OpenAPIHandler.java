package io.kubelix.runtime.endpoints;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.schema.GroupVersion;
import io.kubelix.runtime.endpoints.openapi.OpenAPIV3;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.util.LinkedHashMap;
import java.util.Map;

/** Serves {@code /openapi/v3} and each group version's document from the route table, with ETags. */
final class OpenAPIHandler {
    private static final String ROOT = "/openapi/v3";

    private OpenAPIHandler() {
    }

    static boolean serve(RouteTable routes, Request request, Response response, Callback callback, String path,
                         String serverVersion) {
        if (!path.equals(ROOT) && !path.startsWith(ROOT + "/")) {
            return false;
        }
        Map<String, ObjectNode> docs = new LinkedHashMap<>();
        for (RouteTable.Group g : routes.groups()) {
            for (String v : g.versions()) {
                GroupVersion gv = new GroupVersion(g.name(), v);
                docs.put(OpenAPIV3.key(gv), OpenAPIV3.groupVersion(gv, g.resources().get(v), serverVersion));
            }
        }
        String rest = path.equals(ROOT) ? "" : path.substring(ROOT.length() + 1).replaceAll("/+$", "");
        ObjectNode doc = rest.isEmpty() ? OpenAPIV3.root(docs) : docs.get(rest);
        if (doc == null) {
            return false;
        }
        String etag = "\"" + OpenAPIV3.hash(doc) + "\"";
        if (etag.equals(request.getHeaders().get(HttpHeader.IF_NONE_MATCH))) {
            response.setStatus(304);
            callback.succeeded();
            return true;
        }
        response.getHeaders().put(HttpHeader.ETAG, etag);
        Responses.writeJson(response, callback, 200, "application/json", doc);
        return true;
    }
}
