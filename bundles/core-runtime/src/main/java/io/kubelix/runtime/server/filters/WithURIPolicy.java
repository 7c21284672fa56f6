package io.kubelix.runtime.server.filters;

import io.kubelix.api.errors.StatusException;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The one policy every request URI meets before anything reads it, authentication included:
 * a query whose percent-escapes are malformed ({@code %}, {@code %zz}) or decode to bytes that
 * are not UTF-8 is a 400 with Go's {@code url.ParseQuery} wording, not a failure deep in a
 * handler; and a path with a {@code .} or {@code ..} segment is a 400, never resolved and routed
 * to another resource (Jetty resolves {@code configmaps/..} to the namespace). A resource name
 * that is a dot segment gets kube's {@code Name parameter invalid} message, as its registry
 * refuses such a name.
 */
public final class WithURIPolicy extends Handler.Wrapper {

    public WithURIPolicy(Handler next) {
        super(next);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        checkPath(request.getHttpURI().getPath());
        checkQuery(request.getHttpURI().getQuery());
        return super.handle(request, response, callback);
    }

    /** @param rawPath the path as the client sent it, escapes and dot segments kept */
    static void checkPath(String rawPath) {
        if (rawPath == null) {
            return;
        }
        String[] segments = rawPath.split("/", -1);
        for (int i = 0; i < segments.length; i++) {
            String segment = unescape(segments[i], false);
            if (segment.equals(".") || segment.equals("..")) {
                if (isResourceName(segments, i)) {
                    throw StatusException.badRequest("Name parameter invalid: \"" + segment + "\": may not be '"
                            + segment + "'");
                }
                throw StatusException.badRequest("invalid path \"" + rawPath + "\": it may not have a '" + segment
                        + "' segment");
            }
        }
    }

    /** Whether segment {@code i} of an API path is where RequestInfoFactory reads the resource's name. */
    private static boolean isResourceName(String[] segments, int i) {
        // segments[0] is the empty string before the leading "/".
        int start = segments.length > 1 && segments[1].equals("api") ? 3
                : segments.length > 1 && segments[1].equals("apis") ? 4 : -1;
        if (start < 0 || i <= start) {
            return false;
        }
        int resource = start;
        if (segments[start].equals("namespaces") && segments.length > start + 2) {
            if (i == start + 1) {
                return false;
            }
            resource = start + 2;
        }
        return i == resource + 1;
    }

    /** @param rawQuery the query as the client sent it, or null */
    static void checkQuery(String rawQuery) {
        if (rawQuery == null || rawQuery.isEmpty()) {
            return;
        }
        for (String pair : rawQuery.split("[&;]", -1)) {
            unescape(pair, true);
        }
    }

    /**
     * Go's {@code url.QueryUnescape} (and {@code PathUnescape} without {@code +}): the decoded text, or
     * a 400 naming the first malformed escape as Go's {@code EscapeError} does, or bytes that are not UTF-8.
     */
    private static String unescape(String s, boolean query) {
        if (s.indexOf('%') < 0 && (!query || s.indexOf('+') < 0)) {
            return s;
        }
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%') {
                if (i + 2 >= s.length() || !isHex(s.charAt(i + 1)) || !isHex(s.charAt(i + 2))) {
                    String bad = s.substring(i, Math.min(s.length(), i + 3));
                    throw StatusException.badRequest("invalid URL escape \"" + bad + "\"");
                }
                out.write(Integer.parseInt(s, i + 1, i + 3, 16));
                i += 2;
            } else if (c == '+' && query) {
                out.write(' ');
            } else if (c < 0x80) {
                out.write(c);
            } else {
                // Jetty has already refused raw bytes that are not UTF-8: such a character stays as it is.
                int end = Character.isHighSurrogate(c) && i + 1 < s.length() ? i + 2 : i + 1;
                out.writeBytes(s.substring(i, end).getBytes(StandardCharsets.UTF_8));
                i = end - 1;
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(out.toByteArray()))
                    .toString();
        } catch (CharacterCodingException e) {
            throw StatusException.badRequest("invalid UTF-8 in the " + (query ? "query" : "path") + ": \"" + s + "\"");
        }
    }

    private static boolean isHex(char c) {
        return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F';
    }
}
