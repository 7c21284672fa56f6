package io.kubelix.aggregator;

import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A TLS connection to an extension API server that the proxy speaks HTTP/1.1 on itself, with
 * blocking reads and writes on the request's own thread: an exchange costs no hand-off to another
 * thread, which on a loaded machine is most of what a client library's asynchronous pipeline adds.
 * Kept alive between requests by {@link ProxyTransports}; one exchange at a time.
 */
final class BackendConnection implements Closeable {
    private static final int BUFFER = 16 * 1024;
    private static final byte[] CRLF = {'\r', '\n'};

    private final SSLSocket socket;
    private final InputStream in;
    private final OutputStream out;
    private boolean reused;
    private long idleSince;

    private BackendConnection(SSLSocket socket, InputStream in, OutputStream out) {
        this.socket = socket;
        this.in = in;
        this.out = out;
    }

    /**
     * Connects to {@code host:port}, sending {@code serverName} as the TLS server name (SNI) unless
     * it is empty; the server is verified by {@code tls}'s trust managers at the handshake.
     */
    static BackendConnection open(SSLContext tls, String serverName, String host, int port) throws IOException {
        SSLSocket socket = (SSLSocket) tls.getSocketFactory().createSocket();
        try {
            socket.setTcpNoDelay(true);
            if (!serverName.isEmpty()) {
                SSLParameters parameters = socket.getSSLParameters();
                parameters.setServerNames(List.of(new SNIHostName(serverName)));
                socket.setSSLParameters(parameters);
            }
            socket.connect(new InetSocketAddress(host, port), (int) ProxyTransports.CONNECT_TIMEOUT.toMillis());
            return new BackendConnection(socket, new BufferedInputStream(socket.getInputStream(), BUFFER),
                    new BufferedOutputStream(socket.getOutputStream(), BUFFER));
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    /**
     * Whether the connection had served an exchange before this one: the server may have closed it
     * while it was idle, so that its first write or read fails.
     */
    boolean reused() {
        return reused;
    }

    /** Parks the connection in the idle pool. */
    void idle(long nanos) {
        reused = true;
        idleSince = nanos;
    }

    long idleSince() {
        return idleSince;
    }

    /** The response's bytes as they arrive, buffered. */
    InputStream input() {
        return in;
    }

    /** The request's bytes, buffered: sent on {@code flush}. */
    OutputStream output() {
        return out;
    }

    SSLSocket socket() {
        return socket;
    }

    /** Writes a request head (lines without their CR LF, the empty line added). */
    void writeHead(CharSequence head) throws IOException {
        out.write(head.toString().getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Writes a request body: {@code length} bytes as they are, or, when {@code length} is negative,
     * chunked as they arrive from the client, each chunk sent at once; flushes at the end.
     */
    void writeBody(InputStream body, long length) throws IOException {
        byte[] buffer = new byte[BUFFER];
        if (length >= 0) {
            long left = length;
            while (left > 0) {
                int n = body.read(buffer, 0, (int) Math.min(buffer.length, left));
                if (n < 0) {
                    throw new IOException("the client's body ended " + left + " bytes early");
                }
                out.write(buffer, 0, n);
                left -= n;
            }
        } else {
            for (int n = body.read(buffer); n >= 0; n = body.read(buffer)) {
                if (n > 0) {
                    out.write(Integer.toHexString(n).getBytes(StandardCharsets.US_ASCII));
                    out.write(CRLF);
                    out.write(buffer, 0, n);
                    out.write(CRLF);
                    out.flush();
                }
            }
            out.write(new byte[] {'0', '\r', '\n', '\r', '\n'});
        }
        out.flush();
    }

    /**
     * Copies a response body framed as {@code head} says to {@code to}: as long as its
     * Content-Length, or chunked (decoded), or until the connection ends; none for a response that
     * has no body ({@code bodyless}: a HEAD's, a 204, a 304). {@code to} is flushed only before a
     * read that would wait, so a body that arrives whole is written whole, and a watch's events are
     * passed on as they come.
     *
     * @return whether the connection may carry another exchange
     */
    boolean relayBody(ResponseHead head, boolean bodyless, OutputStream to) throws IOException {
        if (bodyless) {
            return !head.closes();
        }
        byte[] buffer = new byte[BUFFER];
        if (head.chunked()) {
            for (int size = nextChunk(to); size > 0; size = nextChunk(to)) {
                copy(size, buffer, to);
                ResponseHead.readLine(in);
            }
            // Trailers, if any, up to the empty line.
            while (!ResponseHead.readLine(in).isEmpty()) {
                continue;
            }
            return !head.closes();
        }
        long length = head.contentLength();
        if (length >= 0) {
            copy(length, buffer, to);
            return !head.closes();
        }
        for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
            to.write(buffer, 0, n);
            flushBeforeWaiting(to);
        }
        return false;
    }

    private int nextChunk(OutputStream to) throws IOException {
        flushBeforeWaiting(to);
        return ResponseHead.chunkSize(in);
    }

    private void copy(long length, byte[] buffer, OutputStream to) throws IOException {
        long left = length;
        while (left > 0) {
            flushBeforeWaiting(to);
            int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
            if (n < 0) {
                throw new IOException("the extension server's response ended " + left + " bytes early");
            }
            to.write(buffer, 0, n);
            left -= n;
        }
    }

    private void flushBeforeWaiting(OutputStream to) throws IOException {
        if (in.available() == 0) {
            to.flush();
        }
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // Nothing is left to do with a connection that fails to close.
        }
    }
}
