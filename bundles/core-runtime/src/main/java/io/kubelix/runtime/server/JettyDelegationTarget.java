package io.kubelix.runtime.server;

import io.kubelix.api.server.APIRequest;
import io.kubelix.api.server.APIResponse;
import io.kubelix.api.server.DelegationTarget;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * A link of the server chain inside the runtime, which serves Jetty's request and response
 * themselves (the core API: its watches, protobuf and WebSockets need Jetty's own). The
 * {@link Director} calls {@link #handle(Request, Response, Callback)}; registered as a
 * {@link DelegationTarget}, it takes its place in the chain by ranking as a plugin's link does.
 */
public interface JettyDelegationTarget extends DelegationTarget {

    /** Handles the request as a Jetty {@code Handler} does; false delegates to the next link. */
    boolean handle(Request request, Response response, Callback callback) throws Exception;

    /** The same, reached through the SPI: the request and response are the runtime's adapters of Jetty's. */
    @Override
    default boolean handle(APIRequest request, APIResponse response) throws Exception {
        JettyAPIResponse jetty = (JettyAPIResponse) response;
        return handle(((JettyAPIRequest) request).jetty(), jetty.jetty(), jetty.callback());
    }
}
