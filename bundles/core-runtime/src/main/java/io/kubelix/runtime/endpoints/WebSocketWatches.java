package io.kubelix.runtime.endpoints;

import io.kubelix.api.errors.StatusException;
import io.kubelix.runtime.server.filters.WithWebSocketTunnel;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.websocket.core.Configuration;
import org.eclipse.jetty.websocket.core.FrameHandler;
import org.eclipse.jetty.websocket.core.WebSocketComponents;
import org.eclipse.jetty.websocket.core.server.Handshaker;
import org.eclipse.jetty.websocket.core.server.ServerUpgradeRequest;
import org.eclipse.jetty.websocket.core.server.ServerUpgradeResponse;
import org.eclipse.jetty.websocket.core.server.WebSocketNegotiator;
import org.eclipse.jetty.websocket.core.server.WebSocketServerComponents;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Upgrades the watch requests that ask for a WebSocket ({@code Upgrade: websocket} with
 * {@code Connection: upgrade}, as kube-apiserver's wsstream.IsWebSocketRequest tells them), over
 * HTTP/1.1; and over HTTP/2, opens the WebSocket of an RFC 8441 extended {@code CONNECT}, which
 * {@link WithWebSocketTunnel} has shown as a {@code GET}. As kube-apiserver's, the upgrade
 * negotiates no extension (no compression) and no subprotocol: the offered ones are ignored.
 */
final class WebSocketWatches {
    /** kube's connectionUpgradeRegex: "upgrade" as one of the Connection header's tokens. */
    private static final Pattern CONNECTION_UPGRADE = Pattern.compile("(^|.*,\\s*)upgrade($|\\s*,.*)");
    /** How long past its timeout an idle watch's connection is kept: the stream ends first. */
    private static final Duration IDLE_MARGIN = Duration.ofSeconds(60);

    private final Handshaker handshaker = Handshaker.newInstance();

    /** Whether the request asks for its watch over a WebSocket. */
    boolean requested(Request request) {
        if (request.getConnectionMetaData().getHttpVersion() == HttpVersion.HTTP_2) {
            return WithWebSocketTunnel.isWebSocketTunnel(request);
        }
        String upgrade = request.getHeaders().get(HttpHeader.UPGRADE);
        String connection = request.getHeaders().get(HttpHeader.CONNECTION);
        return "websocket".equalsIgnoreCase(upgrade) && connection != null
                && CONNECTION_UPGRADE.matcher(connection.toLowerCase(Locale.ROOT)).matches();
    }

    /**
     * Answers {@code 101 Switching Protocols} (over HTTP/2, {@code 200} to the {@code CONNECT}) and
     * hands the connection (the stream) to {@code sink}; a request that cannot be upgraded (no key,
     * another WebSocket version) is a 400.
     */
    void upgrade(Request request, Response response, Callback callback, WebSocketWatchSink sink, long timeoutSeconds) {
        WebSocketNegotiator negotiator = new WebSocketNegotiator() {
            @Override
            public FrameHandler negotiate(ServerUpgradeRequest req, ServerUpgradeResponse res, Callback cb) {
                res.setExtensions(List.of());
                return sink;
            }

            @Override
            public void customize(Configuration configuration) {
                // A watch may be quiet for its whole life; it is ended by its own timeout, not the connection's.
                configuration.setIdleTimeout(Duration.ofSeconds(timeoutSeconds).plus(IDLE_MARGIN));
            }
        };
        HttpVersion version = request.getConnectionMetaData().getHttpVersion();
        boolean upgraded;
        try {
            if (version == HttpVersion.HTTP_2) {
                // The handshake of RFC 8441 expects the CONNECT the client sent.
                request = new Request.Wrapper(request) {
                    @Override
                    public String getMethod() {
                        return HttpMethod.CONNECT.asString();
                    }
                };
            }
            upgraded = (version == HttpVersion.HTTP_1_1 || version == HttpVersion.HTTP_2)
                    && handshaker.upgradeRequest(negotiator, request, response, callback, components(request), null);
        } catch (RuntimeException e) {
            throw StatusException.badRequest("unable to upgrade the watch to a WebSocket: " + e.getMessage());
        }
        if (!upgraded) {
            throw StatusException.badRequest("unable to upgrade the watch to a WebSocket: not a valid "
                    + "WebSocket (version 13) upgrade request");
        }
    }

    private static WebSocketComponents components(Request request) {
        var server = request.getConnectionMetaData().getConnector().getServer();
        synchronized (server) {
            return WebSocketServerComponents.ensureWebSocketComponents(server);
        }
    }
}
