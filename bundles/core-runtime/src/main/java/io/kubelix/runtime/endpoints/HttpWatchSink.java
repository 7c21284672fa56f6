package io.kubelix.runtime.endpoints;

import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * A watch streamed in the body of a response: DATA frames on HTTP/2; on HTTP/1.1 chunks written
 * whole, size line, data and closing CRLF in one write, as kube-apiserver writes them. (Jetty's own
 * chunking holds each chunk's CRLF back until the next chunk, and a client that reads chunks whole,
 * such as urllib3 under the Python clients, would see each event only when the next one comes; so
 * the stream frames its chunks itself, and Jetty, which then cannot tell where the body ends,
 * closes the connection after it.)
 */
final class HttpWatchSink implements WatchSink {
    private static final byte[] LAST_CHUNK = "0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private final Request request;
    private final Response response;
    private final Callback callback;
    /** Gathers the writes of the watches sharing an HTTP/2 connection; null on HTTP/1.1, where a connection has one. */
    private final ConnectionWriter connection;
    /** Whether the stream writes its own chunks (HTTP/1.1). */
    private final boolean chunked;

    HttpWatchSink(Request request, Response response, Callback callback, Executor writers) {
        this.request = request;
        this.response = response;
        this.callback = callback;
        this.connection = request.getConnectionMetaData().getHttpVersion() == HttpVersion.HTTP_2
                ? ConnectionWriter.of(request, writers) : null;
        this.chunked = request.getConnectionMetaData().getHttpVersion() == HttpVersion.HTTP_1_1;
    }

    @Override
    public void open(Callback opened, Consumer<Throwable> gone) {
        request.addFailureListener(gone);
        if (chunked) {
            // Jetty frames the body by the connection's end; a field of no header Jetty knows is written as it is.
            response.getHeaders().put(HttpHeader.CONNECTION, "close");
            response.getHeaders().add(new HttpField(null, HttpHeader.TRANSFER_ENCODING.asString(), "chunked"));
        }
        // Committed at once so the client sees the watch open.
        response.write(false, ByteBuffer.allocate(0), opened);
    }

    @Override
    public void write(WatchBatch batch, Callback written) {
        ByteBuffer bytes = chunked ? batch.chunk() : batch.bytes();
        if (connection != null) {
            connection.write(response, bytes, written);
        } else {
            response.write(false, bytes, written);
        }
    }

    @Override
    public void end() {
        response.write(true, chunked ? ByteBuffer.wrap(LAST_CHUNK) : ByteBuffer.allocate(0), callback);
    }

    @Override
    public void abort(Throwable failure) {
        callback.failed(failure);
    }
}
