package io.kubelix.runtime.endpoints;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.io.AbstractEndPoint;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.EofException;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * A watch streamed in the body of a response: DATA frames on HTTP/2; on HTTP/1.1 chunks written
 * whole, size line, data and closing CRLF in one write, as kube-apiserver writes them.
 *
 * <p>On HTTP/1.1 Jetty frames the response as chunked (it writes the header and, at the end, the
 * last chunk), but the events' chunks are written to the connection directly: Jetty's own chunking
 * holds each chunk's CRLF back until the next chunk, and a client that reads chunks whole, such as
 * urllib3 under the Python clients, would see each event only when the next one comes. Since Jetty
 * knows where the body ends, the connection serves the client's next request after the watch, as
 * kube-apiserver's does.
 */
final class HttpWatchSink implements WatchSink {
    private final Request request;
    private final Response response;
    private final Callback callback;
    /** Gathers the writes of the watches sharing an HTTP/2 connection; null on HTTP/1.1, where a connection has one. */
    private final ConnectionWriter connection;
    /** The HTTP/1.1 connection the events' chunks are written to; null on other versions. */
    private final EndPoint chunked;
    private final long streamIdleTimeoutMillis;
    /** The connection's idle timeout before the watch, given back after it. */
    private long idleTimeoutMillis;
    /** Whether the stream has ended, after which the client's next bytes are the connection's next request. */
    private boolean ended;
    private Consumer<Throwable> gone;

    /** @param streamIdleTimeoutMillis how long the connection of an HTTP/1.1 watch may be quiet */
    HttpWatchSink(Request request, Response response, Callback callback, Executor writers, long streamIdleTimeoutMillis) {
        this.streamIdleTimeoutMillis = streamIdleTimeoutMillis;
        this.request = request;
        this.response = response;
        this.callback = callback;
        HttpVersion version = request.getConnectionMetaData().getHttpVersion();
        this.connection = version == HttpVersion.HTTP_2 ? ConnectionWriter.of(request, writers) : null;
        this.chunked = version == HttpVersion.HTTP_1_1 ? request.getConnectionMetaData().getConnection().getEndPoint()
                : null;
    }

    @Override
    public void open(Callback opened, Consumer<Throwable> gone) {
        this.gone = gone;
        request.addFailureListener(gone);
        if (chunked != null) {
            // Chunked even when the client asked to close the connection after the response.
            response.getHeaders().put(HttpHeader.TRANSFER_ENCODING, HttpHeaderValue.CHUNKED.asString());
            // The connection may be quiet as long as the watch lasts.
            idleTimeoutMillis = chunked.getIdleTimeout();
            chunked.setIdleTimeout(Math.max(idleTimeoutMillis, streamIdleTimeoutMillis));
            readUntilClosed();
        }
        // Committed at once so the client sees the watch open.
        response.write(false, ByteBuffer.allocate(0), opened);
    }

    /**
     * Notices an HTTP/1.1 client that went away while its watch has nothing to write: Jetty reads
     * nothing from a connection whose request is being served, so without this a vanished client's
     * socket and watcher were held until an event happened to be written. Anything the client sends
     * meanwhile is discarded (clients send nothing on a connection until its response has ended).
     */
    private synchronized void readUntilClosed() {
        if (!ended) {
            chunked.tryFillInterested(Callback.from(this::discardInput, this::readFailed));
        }
    }

    private void discardInput() {
        ByteBuffer discard = BufferUtil.allocate(1024);
        try {
            int n;
            do {
                BufferUtil.clear(discard);
                n = chunked.fill(discard);
            } while (n > 0);
            if (n < 0) {
                readFailed(new EofException("the client closed the connection"));
            } else {
                readUntilClosed();
            }
        } catch (IOException e) {
            readFailed(e);
        }
    }

    private void readFailed(Throwable failure) {
        synchronized (this) {
            if (ended) {
                // The read was given up when the stream ended: nothing is wrong.
                return;
            }
        }
        gone.accept(failure);
    }

    @Override
    public void write(WatchBatch batch, Callback written) {
        if (chunked != null) {
            chunked.write(written, batch.chunk());
        } else if (connection != null) {
            connection.write(response, batch.bytes(), written);
        } else {
            response.write(false, batch.bytes(), written);
        }
    }

    @Override
    public void end() {
        if (chunked != null) {
            synchronized (this) {
                ended = true;
                // Jetty reads the connection's next request once the response is complete, and
                // would find this read still waiting on it.
                if (chunked instanceof AbstractEndPoint endPoint && endPoint.isFillInterested()) {
                    endPoint.getFillInterest().onFail(new EofException("the watch ended"));
                }
            }
            chunked.setIdleTimeout(idleTimeoutMillis);
        }
        // On HTTP/1.1 Jetty writes the last chunk.
        response.write(true, ByteBuffer.allocate(0), callback);
    }

    @Override
    public void abort(Throwable failure) {
        callback.failed(failure);
    }
}
