package io.kubelix.runtime.server;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.server.DelegationTarget;
import io.kubelix.runtime.endpoints.responsewriters.Responses;
import io.kubelix.runtime.flowcontrol.FlowControlDebugging;
import io.kubelix.runtime.metrics.MetricsHandler;
import io.kubelix.runtime.plugins.KubelixEndpoint;
import io.kubelix.runtime.server.healthz.HealthHandler;
import io.kubelix.runtime.server.healthz.VersionInfo;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.util.List;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * The Director: API paths ({@code /api}, {@code /apis}) go down the server chain of
 * DelegationTargets, highest ranking first, ending in NotFound (a plugin's link sees the request
 * through {@link JettyAPIRequest} and {@link JettyAPIResponse}, the runtime's own through Jetty's);
 * every other path goes to the non-API mux ({@code /healthz}, {@code /livez}, {@code /readyz}, {@code /metrics}, {@code /version}, {@code /openapi/v2}, {@code /openapi/v3},
 * {@code /kubelix/*}, {@code /}).
 */
public final class Director extends Handler.Abstract {
    private final Supplier<List<DelegationTarget>> serverChain;
    private final List<HealthHandler> healthHandlers;
    private final VersionInfo version;
    private final Supplier<List<OpenAPIProvider>> openAPI;
    private final Supplier<List<KubelixEndpoint>> kubelixEndpoints;
    private final MetricsHandler metrics;
    private final FlowControlDebugging flowControl;

    public Director(Supplier<List<DelegationTarget>> serverChain, Supplier<List<OpenAPIProvider>> openAPI,
                    Supplier<List<KubelixEndpoint>> kubelixEndpoints, List<HealthHandler> healthHandlers,
                    VersionInfo version, MetricsHandler metrics) {
        this(serverChain, openAPI, kubelixEndpoints, healthHandlers, version, metrics, null);
    }

    /** @param flowControl the priority and fairness dumps, or null when flow control is off */
    public Director(Supplier<List<DelegationTarget>> serverChain, Supplier<List<OpenAPIProvider>> openAPI,
                    Supplier<List<KubelixEndpoint>> kubelixEndpoints, List<HealthHandler> healthHandlers,
                    VersionInfo version, MetricsHandler metrics, FlowControlDebugging flowControl) {
        this.flowControl = flowControl;
        this.metrics = metrics;
        this.serverChain = serverChain;
        this.openAPI = openAPI;
        this.kubelixEndpoints = kubelixEndpoints;
        this.healthHandlers = healthHandlers;
        this.version = version;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String path = Request.getPathInContext(request);
        if (isAPIPath(path)) {
            JettyAPIRequest apiRequest = null;
            JettyAPIResponse apiResponse = null;
            for (DelegationTarget target : serverChain.get()) {
                if (target instanceof JettyDelegationTarget jetty) {
                    if (jetty.handle(request, response, callback)) {
                        return true;
                    }
                    continue;
                }
                if (apiRequest == null) {
                    apiRequest = new JettyAPIRequest(request);
                    apiResponse = new JettyAPIResponse(response, callback);
                }
                if (target.handle(apiRequest, apiResponse)) {
                    return true;
                }
            }
            throw notFound();
        }
        return nonAPI(request, response, callback, path);
    }

    static boolean isAPIPath(String path) {
        return path.equals("/api") || path.startsWith("/api/") || path.equals("/apis") || path.startsWith("/apis/");
    }

    private boolean nonAPI(Request request, Response response, Callback callback, String path) {
        boolean read = request.getMethod().equals("GET") || request.getMethod().equals("HEAD");
        if (path.equals("/version") || path.equals("/version/")) {
            requireRead(read);
            Responses.writeObject(request, response, callback, 200, version.document());
            return true;
        }
        if (read) {
            for (HealthHandler h : healthHandlers) {
                if (h.handle(request, response, callback, path)) {
                    return true;
                }
            }
        }
        if (read && path.equals(MetricsHandler.PATH)) {
            metrics.serve(request, response, callback);
            return true;
        }
        if (read && (path.equals("/openapi/v2") || path.equals("/openapi/v3") || path.startsWith("/openapi/v3/"))) {
            for (OpenAPIProvider p : openAPI.get()) {
                if (p.serveOpenAPI(request, response, callback, path)) {
                    return true;
                }
            }
        }
        if (read && flowControl != null && path.startsWith(FlowControlDebugging.PREFIX)
                && flowControl.serve(request, response, callback, path)) {
            return true;
        }
        if (KubelixEndpoint.isKubelixPath(path)) {
            for (KubelixEndpoint e : kubelixEndpoints.get()) {
                if (e.serve(request, response, callback, path)) {
                    return true;
                }
            }
        }
        if (path.equals("/") && read) {
            Responses.writeObject(request, response, callback, 200, rootPaths());
            return true;
        }
        throw notFound();
    }

    /** The root document: every path the server answers, as kube-apiserver's index lists them. */
    private ObjectNode rootPaths() {
        TreeSet<String> paths = new TreeSet<>(List.of("/api", "/apis", "/healthz", "/kubelix/console/", "/kubelix/plugins", "/livez",
                "/metrics", "/openapi/v2", "/openapi/v3", "/readyz",
                "/version"));
        ObjectNode doc = JsonNodeFactory.instance.objectNode();
        ArrayNode arr = doc.putArray("paths");
        paths.forEach(arr::add);
        return doc;
    }

    private static void requireRead(boolean read) {
        if (!read) {
            throw new StatusException(io.kubelix.api.errors.StatusReason.METHOD_NOT_ALLOWED,
                    "the server does not allow this method on the requested resource");
        }
    }

    static StatusException notFound() {
        return new StatusException(io.kubelix.api.errors.StatusReason.NOT_FOUND, 404,
                "the server could not find the requested resource", new StatusException.Details(null, null, null, List.of(), 0), null);
    }
}
