package io.kubelix.api.server;

import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * A link of the server chain (kube-apiserver's DelegationTarget): aggregator, core API,
 * apiextensions, then NotFound. Links are whiteboard services tried from the highest
 * {@code service.ranking} down; each handles an API request it owns or passes it on.
 * The request has already been authenticated and authorized.
 */
public interface DelegationTarget {
    /** Ranking of the core API link; the aggregator ranks above it, apiextensions below. */
    int CORE_API_RANKING = 0;

    /** A short name for logs and the status endpoint, such as {@code kube-apiserver}. */
    String name();

    /**
     * Handles the request, as a Jetty {@code Handler} does.
     *
     * @return true when this link took the request (and will complete {@code callback}),
     *         false to delegate to the next link
     */
    boolean handle(Request request, Response response, Callback callback) throws Exception;
}
