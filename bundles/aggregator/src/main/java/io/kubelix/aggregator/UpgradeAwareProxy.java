package io.kubelix.aggregator;

import io.kubelix.api.request.UserInfo;
import io.kubelix.api.server.APIRequest;
import io.kubelix.api.server.APIResponse;
import io.kubelix.api.server.UpgradedConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
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
    private static final int MAX_HEAD = 64 * 1024;
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
        SSLSocket backend = (SSLSocket) tls.getSocketFactory().createSocket();
        try {
            // 1. Connect and say the request, the client's headers as they are but for credentials.
            backend.connect(new InetSocketAddress(target.getHost(), target.getPort()),
                    (int) ProxyTransports.CONNECT_TIMEOUT.toMillis());
            if (!serverName.isEmpty()) {
                SSLParameters parameters = backend.getSSLParameters();
                parameters.setServerNames(List.of(new SNIHostName(serverName)));
                backend.setSSLParameters(parameters);
            }
            OutputStream out = backend.getOutputStream();
            out.write(head(target, request, user).getBytes(StandardCharsets.UTF_8));
            out.flush();
            // 2. Read the answer's head; the bytes after it are the switched protocol's or the body.
            InputStream in = new BufferedInputStream(backend.getInputStream(), BUFFER);
            Head answer = Head.read(in);
            response.setStatus(answer.status());
            boolean switching = answer.status() == 101;
            for (String[] h : answer.headers()) {
                String name = h[0].toLowerCase(Locale.ROOT);
                if (switching || !AuthProxyHeaders.HopByHop.is(name) && !name.equals("content-length")) {
                    response.addHeader(h[0], h[1]);
                }
            }
            if (!switching) {
                relayBody(answer, in, backend, response);
                return;
            }
            // 3. Relay both ways, until either side ends (kube closes both then).
            response.upgrade(client -> relay(client, backend, in, out, target));
        } catch (IOException | RuntimeException e) {
            closeQuietly(backend);
            throw e;
        }
    }

    /** The request line and headers, with the user's and without the client's credentials. */
    private static String head(URI target, APIRequest request, UserInfo user) {
        StringBuilder b = new StringBuilder();
        b.append(request.method()).append(' ').append(request.rawPath())
                .append(request.rawQuery() == null ? "" : "?" + request.rawQuery()).append(" HTTP/1.1\r\n");
        b.append("Host: ").append(target.getHost()).append(':').append(target.getPort()).append("\r\n");
        for (Map.Entry<String, List<String>> h : request.headers().entrySet()) {
            String name = h.getKey().toLowerCase(Locale.ROOT);
            if (name.equals("connection") || name.equals("upgrade") || !AuthProxyHeaders.dropped(name)) {
                h.getValue().forEach(value -> b.append(h.getKey()).append(": ").append(value).append("\r\n"));
            }
        }
        AuthProxyHeaders.forEach(user, (name, value) -> b.append(name).append(": ").append(value).append("\r\n"));
        return b.append("\r\n").toString();
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

    /** A refused upgrade's body: as long as its Content-Length says, or chunked, or until the connection ends. */
    private static void relayBody(Head answer, InputStream in, SSLSocket backend, APIResponse response) {
        try (backend) {
            OutputStream out = response.body();
            if (answer.chunked()) {
                for (int size = chunkSize(in); size > 0; size = chunkSize(in)) {
                    out.write(in.readNBytes(size));
                    readLine(in);
                }
            } else if (answer.contentLength() >= 0) {
                out.write(in.readNBytes((int) Math.min(answer.contentLength(), Integer.MAX_VALUE)));
            } else {
                in.transferTo(out);
            }
            response.complete();
        } catch (IOException | NumberFormatException e) {
            response.fail(e);
        }
    }

    /** The size of the next chunk of a chunked body (its extensions ignored); 0 for the last. */
    private static int chunkSize(InputStream in) throws IOException {
        String line = readLine(in);
        int semicolon = line.indexOf(';');
        return Integer.parseInt((semicolon < 0 ? line : line.substring(0, semicolon)).trim(), 16);
    }

    /** A line up to LF, without its CR LF; throws at the end of the stream or past the head's limit. */
    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0 || line.size() > MAX_HEAD) {
                throw new IOException("the extension server's response ended early");
            }
            line.write(c);
        }
        return line.toString(StandardCharsets.ISO_8859_1).replaceAll("\r$", "");
    }

    private static void closeQuietly(SSLSocket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            LOG.debug("closing an upgraded connection's backend: {}", e.toString());
        }
    }

    /** A response's status and headers as the extension server sent them. */
    record Head(int status, List<String[]> headers) {
        static Head read(InputStream in) throws IOException {
            List<String> lines = new ArrayList<>();
            int total = 0;
            for (String l = readLine(in); !l.isEmpty(); l = readLine(in)) {
                total += l.length();
                if (total > MAX_HEAD) {
                    throw new IOException("the extension server's response head is too large");
                }
                lines.add(l);
            }
            if (lines.isEmpty()) {
                throw new IOException("the extension server sent no HTTP response");
            }
            String[] statusLine = lines.get(0).split(" ", 3);
            if (statusLine.length < 2 || !statusLine[0].startsWith("HTTP/1.")) {
                throw new IOException("malformed HTTP response: " + lines.get(0));
            }
            int status;
            try {
                status = Integer.parseInt(statusLine[1]);
            } catch (NumberFormatException e) {
                throw new IOException("malformed HTTP status: " + lines.get(0), e);
            }
            List<String[]> headers = new ArrayList<>();
            for (String l : lines.subList(1, lines.size())) {
                int colon = l.indexOf(':');
                if (colon > 0) {
                    headers.add(new String[] {l.substring(0, colon).trim(), l.substring(colon + 1).trim()});
                }
            }
            return new Head(status, headers);
        }

        long contentLength() {
            for (String[] h : headers) {
                if (h[0].equalsIgnoreCase("Content-Length")) {
                    return Long.parseLong(h[1]);
                }
            }
            return -1;
        }

        boolean chunked() {
            return headers.stream().anyMatch(h -> h[0].equalsIgnoreCase("Transfer-Encoding")
                    && h[1].toLowerCase(Locale.ROOT).contains("chunked"));
        }
    }
}
