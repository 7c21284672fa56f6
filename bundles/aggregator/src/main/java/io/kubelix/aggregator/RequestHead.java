package io.kubelix.aggregator;

import io.kubelix.api.request.UserInfo;
import io.kubelix.api.server.APIRequest;

import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The HTTP/1.1 request line and headers the proxy sends an extension server: the client's
 * request as it came, but for its credentials and its own hop's headers, naming the user as a
 * front proxy does ({@link AuthProxyHeaders}).
 */
final class RequestHead {
    private RequestHead() {
    }

    /**
     * The head up to and with its empty line.
     *
     * @param upgrade whether the client's {@code Connection} and {@code Upgrade} headers are kept
     * @param bodyLength the body's length, 0 for none, or -1 for one sent chunked
     */
    static String of(URI target, APIRequest request, UserInfo user, boolean upgrade, long bodyLength) {
        StringBuilder b = new StringBuilder(512);
        b.append(request.method()).append(' ').append(request.rawPath());
        if (request.rawQuery() != null) {
            b.append('?').append(request.rawQuery());
        }
        b.append(" HTTP/1.1\r\nHost: ").append(target.getHost()).append(':').append(target.getPort()).append("\r\n");
        for (Map.Entry<String, List<String>> h : request.headers().entrySet()) {
            String name = h.getKey().toLowerCase(Locale.ROOT);
            if (upgrade && (name.equals("connection") || name.equals("upgrade")) || !AuthProxyHeaders.dropped(name)) {
                for (String value : h.getValue()) {
                    b.append(h.getKey()).append(": ").append(value).append("\r\n");
                }
            }
        }
        AuthProxyHeaders.forEach(user, (name, value) -> b.append(name).append(": ").append(value).append("\r\n"));
        if (bodyLength > 0) {
            b.append("Content-Length: ").append(bodyLength).append("\r\n");
        } else if (bodyLength < 0) {
            b.append("Transfer-Encoding: chunked\r\n");
        }
        return b.append("\r\n").toString();
    }
}
