package io.kubelix.runtime.server.filters;

import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.TunnelSupport;
import org.eclipse.jetty.util.Callback;

/**
 * A WebSocket opened over HTTP/2 (RFC 8441: {@code CONNECT} with the {@code :protocol} pseudo-header
 * {@code websocket}) is the HTTP/2 form of an HTTP/1.1 {@code GET} with {@code Upgrade: websocket}:
 * the filters and handlers after this one see it as that {@code GET}, so it is authorized, counted
 * and routed (a watch) as the HTTP/1.1 upgrade is. kube-apiserver's Go server does not accept
 * these; clients that open WebSockets over HTTP/2 (Jetty's, browsers') get watches as over HTTP/1.1.
 */
public final class WithWebSocketTunnel extends Handler.Wrapper {

    public WithWebSocketTunnel(Handler next) {
        super(next);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        if (isWebSocketConnect(request)) {
            request = new Request.Wrapper(request) {
                @Override
                public String getMethod() {
                    return HttpMethod.GET.asString();
                }
            };
        }
        return super.handle(request, response, callback);
    }

    /** Whether {@code request} opens a WebSocket over HTTP/2, whichever method it now shows. */
    public static boolean isWebSocketTunnel(Request request) {
        TunnelSupport tunnel = request.getTunnelSupport();
        return tunnel != null && "websocket".equalsIgnoreCase(tunnel.getProtocol());
    }

    private static boolean isWebSocketConnect(Request request) {
        return HttpMethod.CONNECT.is(request.getMethod()) && isWebSocketTunnel(request);
    }
}
