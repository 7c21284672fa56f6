package io.kubelix.runtime.server;

import io.kubelix.api.server.APIResponse;
import io.kubelix.api.server.UpgradedConnection;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.HttpStream;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Blocker;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.function.Consumer;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Jetty's response and the request's callback as the SPI's {@link APIResponse}, for the links of
 * the server chain that plugins register: completing it succeeds the callback, failing it fails
 * the callback.
 */
final class JettyAPIResponse implements APIResponse {
    /** How long a long-running response may be quiet: an hour, the longest watch, and a margin. */
    static final long LONG_RUNNING_IDLE_TIMEOUT_MILLIS = 3_900_000;
    /** The body buffer: a response that fits is sent whole, with a Content-Length. */
    static final int BUFFER = 16 * 1024;

    private final Response response;
    private final Callback callback;
    private final AtomicBoolean ended = new AtomicBoolean();
    private Body body;

    JettyAPIResponse(Response response, Callback callback) {
        this.response = response;
        this.callback = callback;
    }

    Response jetty() {
        return response;
    }

    Callback callback() {
        return callback;
    }

    @Override
    public void setStatus(int code) {
        requireUncommitted();
        response.setStatus(code);
    }

    @Override
    public void setHeader(String name, String value) {
        requireUncommitted();
        response.getHeaders().put(name, value);
    }

    @Override
    public void addHeader(String name, String value) {
        requireUncommitted();
        response.getHeaders().add(name, value);
    }

    @Override
    public synchronized OutputStream body() {
        if (body == null) {
            body = new Body();
        }
        return body;
    }

    /**
     * An HTTP/2 stream may already be quiet that long (the connector's stream idle timeout); an
     * HTTP/1.1 connection, which Jetty closes after the connector's idle timeout, gets as long and
     * is closed after the response, as the core API's own watches are served.
     */
    @Override
    public void longRunning() {
        requireUncommitted();
        Request request = response.getRequest();
        if (request.getConnectionMetaData().getHttpVersion() == HttpVersion.HTTP_1_1) {
            EndPoint endPoint = request.getConnectionMetaData().getConnection().getEndPoint();
            endPoint.setIdleTimeout(Math.max(endPoint.getIdleTimeout(), LONG_RUNNING_IDLE_TIMEOUT_MILLIS));
            response.getHeaders().put(HttpHeader.CONNECTION, "close");
        }
    }

    /**
     * Jetty 12 core's way, as its WebSocket handshake takes a connection over: the connection to
     * switch to is named in a request attribute, and once the 101 has been written and the handler
     * has returned, the HTTP/1.1 connection hands its endpoint (and any bytes read past the
     * request) to it.
     */
    @Override
    public void upgrade(Consumer<UpgradedConnection> protocol) {
        requireUncommitted();
        Request request = response.getRequest();
        if (request.getConnectionMetaData().getHttpVersion() != HttpVersion.HTTP_1_1) {
            throw new IllegalStateException("only an HTTP/1.1 connection can be upgraded");
        }
        if (!ended.compareAndSet(false, true)) {
            throw new IllegalStateException("the response has ended");
        }
        EndPoint endPoint = request.getConnectionMetaData().getConnection().getEndPoint();
        JettyUpgradedConnection upgraded = new JettyUpgradedConnection(endPoint, request.getComponents().getExecutor(),
                protocol);
        request.setAttribute(HttpStream.UPGRADE_CONNECTION_ATTRIBUTE, upgraded);
        response.setStatus(HttpStatus.SWITCHING_PROTOCOLS_101);
        endPoint.setIdleTimeout(0);
        response.write(true, BufferUtil.EMPTY_BUFFER, Callback.from(callback::succeeded, failure -> {
            callback.failed(failure);
            endPoint.close(failure);
            upgraded.start();
        }));
    }

    @Override
    public void complete() {
        if (ended.compareAndSet(false, true)) {
            Body b;
            synchronized (this) {
                b = body;
            }
            response.write(true, b == null ? BufferUtil.EMPTY_BUFFER : b.rest(), callback);
        }
    }

    @Override
    public void fail(Throwable cause) {
        if (ended.compareAndSet(false, true)) {
            callback.failed(cause);
        }
    }

    private void requireUncommitted() {
        if (response.isCommitted()) {
            throw new IllegalStateException("the response is committed");
        }
    }

    /** The body stream: buffers, and sends the buffer (not the last part) when full or flushed. */
    private final class Body extends OutputStream {
        private final byte[] buffer = new byte[BUFFER];
        private int count;

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            requireOpen();
            if (len > buffer.length - count && count > 0) {
                send(ByteBuffer.wrap(buffer, 0, count));
                count = 0;
            }
            if (len >= buffer.length) {
                send(ByteBuffer.wrap(b, off, len));
            } else {
                System.arraycopy(b, off, buffer, count, len);
                count += len;
            }
        }

        @Override
        public void flush() throws IOException {
            requireOpen();
            if (count > 0 || !response.isCommitted()) {
                send(ByteBuffer.wrap(buffer, 0, count));
                count = 0;
            }
        }

        /** Does nothing: the response ends with complete() or fail(). */
        @Override
        public void close() {
        }

        /** What is buffered, as the last part; the stream is not written after. */
        ByteBuffer rest() {
            return ByteBuffer.wrap(buffer, 0, count);
        }

        private void send(ByteBuffer bytes) throws IOException {
            try (Blocker.Callback sent = Blocker.callback()) {
                response.write(false, bytes, sent);
                sent.block();
            }
        }

        private void requireOpen() throws IOException {
            if (ended.get()) {
                throw new IOException("the response has ended");
            }
        }
    }
}
