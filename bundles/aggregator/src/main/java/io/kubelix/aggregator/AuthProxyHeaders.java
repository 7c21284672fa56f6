package io.kubelix.aggregator;

import io.kubelix.api.request.UserInfo;

import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The headers a front proxy names its user in (client-go's SetAuthProxyHeaders): {@code X-Remote-User},
 * {@code X-Remote-Uid} when there is one, one {@code X-Remote-Group} per group and one
 * {@code X-Remote-Extra-<key>} per extra value, the key percent-encoded where a header name may
 * not hold it. Whatever the client sent under these names, and its own credentials, never reach the
 * extension server.
 */
final class AuthProxyHeaders {
    static final String USER = "X-Remote-User";
    static final String UID = "X-Remote-Uid";
    static final String GROUP = "X-Remote-Group";
    static final String EXTRA_PREFIX = "X-Remote-Extra-";

    private AuthProxyHeaders() {
    }

    /**
     * Whether a client's header is left out of the proxied request: its credentials (the
     * authentication and impersonation filters have used them), the user headers the proxy sets
     * itself, and headers of one hop ({@code Connection}, {@code Host}, ...) that the client
     * library sets for the next.
     */
    static boolean dropped(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        return n.equals("authorization") || n.startsWith("impersonate-") || n.startsWith("x-remote-")
                || HopByHop.is(n) || n.equals("host") || n.equals("content-length") || n.equals("expect");
    }

    static void set(HttpRequest.Builder request, UserInfo user) {
        forEach(user, request::header);
    }

    /** Calls {@code header} with each header naming the user, in the order they are sent. */
    static void forEach(UserInfo user, BiConsumer<String, String> header) {
        header.accept(USER, user.name());
        if (!user.uid().isEmpty()) {
            header.accept(UID, user.uid());
        }
        for (String group : user.groups()) {
            header.accept(GROUP, group);
        }
        for (Map.Entry<String, List<String>> extra : user.extra().entrySet()) {
            for (String value : extra.getValue()) {
                header.accept(EXTRA_PREFIX + escapeKey(extra.getKey()), value);
            }
        }
    }

    /** client-go's headerKeyEscape: bytes that may not be in a header name (and '%') become %XX. */
    static String escapeKey(String key) {
        StringBuilder b = new StringBuilder();
        for (byte c : key.getBytes(StandardCharsets.UTF_8)) {
            int u = c & 0xff;
            if (u != '%' && legal(u)) {
                b.append((char) u);
            } else {
                b.append('%').append(String.format("%02X", u));
            }
        }
        return b.toString();
    }

    /** A token character of RFC 7230. */
    private static boolean legal(int c) {
        return c < 0x7f && c > 0x20 && (Character.isLetterOrDigit(c) || "!#$&'*+-.^_`|~".indexOf(c) >= 0);
    }

    /** Hop-by-hop headers (RFC 7230 6.1), which a proxy never passes on. */
    static final class HopByHop {
        private static final List<String> NAMES = List.of("connection", "keep-alive", "proxy-connection",
                "proxy-authenticate", "proxy-authorization", "te", "trailer", "transfer-encoding", "upgrade");

        private HopByHop() {
        }

        static boolean is(String lowerCaseName) {
            return NAMES.contains(lowerCaseName);
        }
    }
}
