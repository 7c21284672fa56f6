package io.kubelix.aggregator;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * An HTTP/1.1 response's status and headers as an extension server sent them, and the few pieces
 * of HTTP/1.1 framing the proxy reads itself (lines, chunk sizes) on its connections to extension
 * servers.
 */
record ResponseHead(int status, List<String[]> headers) {
    static final int MAX_HEAD = 64 * 1024;

    /** Reads a head up to its empty line; the stream is then at the body's first byte. */
    static ResponseHead read(InputStream in) throws IOException {
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
        List<String[]> headers = new ArrayList<>(lines.size() - 1);
        for (String l : lines.subList(1, lines.size())) {
            int colon = l.indexOf(':');
            if (colon > 0) {
                headers.add(new String[] {l.substring(0, colon).trim(), l.substring(colon + 1).trim()});
            }
        }
        if (statusLine[0].equals("HTTP/1.0") && !has(headers, "Connection", "keep-alive")) {
            // HTTP/1.0 closes the connection after the response unless it says otherwise.
            headers.add(new String[] {"Connection", "close"});
        }
        return new ResponseHead(status, headers);
    }

    /** The Content-Length, or -1 without one. */
    long contentLength() {
        for (String[] h : headers) {
            if (h[0].equalsIgnoreCase("Content-Length")) {
                return Long.parseLong(h[1]);
            }
        }
        return -1;
    }

    boolean chunked() {
        return has(headers, "Transfer-Encoding", "chunked");
    }

    /** Whether the server closes the connection after this response. */
    boolean closes() {
        return has(headers, "Connection", "close");
    }

    private static boolean has(List<String[]> headers, String name, String token) {
        for (String[] h : headers) {
            if (h[0].equalsIgnoreCase(name) && h[1].toLowerCase(Locale.ROOT).contains(token)) {
                return true;
            }
        }
        return false;
    }

    /** The size of the next chunk of a chunked body (its extensions ignored); 0 for the last. */
    static int chunkSize(InputStream in) throws IOException {
        String line = readLine(in);
        int semicolon = line.indexOf(';');
        try {
            return Integer.parseInt((semicolon < 0 ? line : line.substring(0, semicolon)).trim(), 16);
        } catch (NumberFormatException e) {
            throw new IOException("malformed chunk size: " + line, e);
        }
    }

    /** A line up to LF, without its CR LF; throws at the end of the stream or past the head's limit. */
    static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream(64);
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0 || line.size() > MAX_HEAD) {
                throw new IOException("the extension server's response ended early");
            }
            line.write(c);
        }
        int n = line.size();
        String s = line.toString(StandardCharsets.ISO_8859_1);
        return n > 0 && s.charAt(n - 1) == '\r' ? s.substring(0, n - 1) : s;
    }
}
