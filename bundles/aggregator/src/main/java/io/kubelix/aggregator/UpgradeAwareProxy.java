package io.kubelix.aggregator;

import io.kubelix.api.request.UserInfo;
import io.kubelix.api.server.APIRequest;
import io.kubelix.api.server.APIResponse;
import io.kubelix.api.server.UpgradedConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The upgrade half of kube's UpgradeAwareHandler: a request asking to switch protocols
 * ({@code kubectl exec}, {@code attach}, {@code port-forward}: SPDY or WebSocket) is written to the
 * extension server on a TLS connection of its own with its {@code Connection} and {@code Upgrade}
 * headers; a {@code 101} is relayed and then the raw bytes both ways until either side ends, and
 * any other answer is relayed as an ordinary response. java.net.http cannot switch protocols,
 * hence a plain socket.
 */
final class UpgradeAwareProxy {
    private static final Logger LOG = LoggerFactory.getLogger(UpgradeAwareProxy.class);
    /** kube's connectionUpgradeRegex: "upgrade" as one of the Connection header's tokens. */
    private static final Pattern CONNECTION_UPGRADE = Pattern.compile("(^|.*,\\s*)upgrade($|\\s*,.*)");
    private static final int BUFFER = 16 * 1024;

    private UpgradeAwareProxy() {
    }

    /** httpstream.IsUpgradeRequest: a {@code Connection} header naming {@code upgrade}. */
    static boolean isUpgradeRequest(APIRequest request) {
        for (Map.Entry<String, List<String>> h : request.headers().entrySet()) {
            if (h.getKey().equalsIgnoreCase("Connection")) {
                for (String value : h.getValue()) {
                    if (CONNECTION_UPGRADE.matcher(value.toLowerCase(Locale.ROOT)).matches()) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /**
     * Proxies the upgrade request to {@code target}'s host and port; ends {@code response} or
     * upgrades it.
     *
     * @param serverName the TLS server name to send (SNI), or empty for none
     * @throws IOException when the extension server cannot be reached or answers no HTTP response
     */
    static void proxy(URI target, SSLContext tls, String serverName, APIRequest request, UserInfo user,
                      APIResponse response) throws IOException {
        // 1. Connect and say the request, the client's headers as they are but for credentials.
        BackendConnection connection = BackendConnection.open(tls, serverName, target.getHost(), target.getPort());
        SSLSocket backend = connection.socket();
        try {
            OutputStream out = connection.output();
            connection.writeHead(RequestHead.of(target, request, user, true, 0));
            out.flush();
            // 2. Read the answer's head; the bytes after it are the switched protocol's or the body.
            InputStream in = connection.input();
            ResponseHead answer = ResponseHead.read(in);
            response.setStatus(answer.status());
            boolean switching = answer.status() == 101;
            for (String[] h : answer.headers()) {
                String name = h[0].toLowerCase(Locale.ROOT);
                if (switching || !AuthProxyHeaders.HopByHop.is(name) && !name.equals("content-length")) {
                    response.addHeader(h[0], h[1]);
                }
            }
            if (!switching) {
                relayBody(answer, connection, response);
                return;
            }
            // 3. Relay both ways, until either side ends (kube closes both then).
            response.upgrade(client -> relay(client, backend, in, out, target));
        } catch (IOException | RuntimeException e) {
            closeQuietly(backend);
            throw e;
        }
    }

    private static void relay(UpgradedConnection client, SSLSocket backend, InputStream fromBackend,
                              OutputStream toBackend, URI target) {
        Thread down = new Thread(() -> {
            copy(fromBackend, client.output());
            closeQuietly(backend);
            client.close();
        }, "aggregator-upgrade-" + target.getHost() + ":" + target.getPort());
        down.setDaemon(true);
        down.start();
        copy(client.input(), toBackend);
        closeQuietly(backend);
        client.close();
    }

    /** Copies until either side ends; which one does not matter, the relay closes both. */
    private static void copy(InputStream in, OutputStream out) {
        byte[] buffer = new byte[BUFFER];
        try {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            LOG.debug("upgraded connection ended: {}", e.toString());
        }
    }

    /** A refused upgrade's body, framed as its head says; the connection is not kept. */
    private static void relayBody(ResponseHead answer, BackendConnection backend, APIResponse response) {
        try (backend) {
            backend.relayBody(answer, false, response.body());
            response.complete();
        } catch (IOException | NumberFormatException e) {
            response.fail(e);
        }
    }

    private static void closeQuietly(SSLSocket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            LOG.debug("closing an upgraded connection's backend: {}", e.toString());
        }
    }
}
