package io.kubelix.runtime.server;

import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * A server-chain link's share of the {@code /openapi/*} documents (core-runtime internal). The
 * Director asks each in ranking order; the first that knows the path answers.
 */
public interface OpenAPIProvider {
    /** @return true when this provider answered {@code path} */
    boolean serveOpenAPI(Request request, Response response, Callback callback, String path);
}
