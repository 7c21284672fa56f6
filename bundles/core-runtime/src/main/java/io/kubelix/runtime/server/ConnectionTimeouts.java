package io.kubelix.runtime.server;

import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.ssl.SslConnection;
import org.eclipse.jetty.server.ConnectionMetaData;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpStream;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.thread.Scheduler;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The timeouts kube-apiserver's {@code http.Server} keeps for one connection (secure_serving.go):
 * {@code ReadHeaderTimeout} (32 s), a deadline for the TLS handshake and for a request's header,
 * counted from the connection's start, from the handshake's end and, between HTTP/1.1 requests,
 * from the next request's first byte; and {@code IdleTimeout} (90 s), how long a keep-alive
 * connection (HTTP/1.1 or HTTP/2) may wait for its next request, which is the connector's idle
 * timeout. A request whose header is complete is no longer subject to the deadline: its body and
 * its answer are the request timeout's business, and a watch sets its own connection's timeout.
 *
 * <p>The TLS connection reports its opening, handshake and bytes read; the {@link Customizer},
 * which sees each request once its header is complete, reports requests beginning and ending.
 */
final class ConnectionTimeouts {
    /** kube-apiserver's ReadHeaderTimeout: "just shy of requestTimeoutUpperBound". */
    static final Duration READ_HEADER_TIMEOUT = Duration.ofSeconds(32);
    /** kube-apiserver's IdleTimeout, which matches http.DefaultTransport's keep-alive. */
    static final Duration IDLE_TIMEOUT = Duration.ofSeconds(90);

    private final Scheduler scheduler;
    private final EndPoint network;
    private final long readHeaderMillis;
    /** The pending header deadline, or null. */
    private Scheduler.Task deadline;
    /** Whether an HTTP/1.1 connection has answered its request and waits for the next one. */
    private boolean betweenRequests;

    /**
     * @param network          the connection's socket, closed when the deadline passes
     * @param readHeaderMillis the read-header deadline
     */
    ConnectionTimeouts(Scheduler scheduler, EndPoint network, long readHeaderMillis) {
        this.scheduler = scheduler;
        this.network = network;
        this.readHeaderMillis = readHeaderMillis;
    }

    /** The connection opened: its handshake and first header are awaited from now. */
    synchronized void awaitHeader() {
        cancel();
        betweenRequests = false;
        Scheduler.Task task = scheduler.schedule(() -> expire(this), readHeaderMillis, TimeUnit.MILLISECONDS);
        deadline = task;
    }

    /**
     * The handshake finished: the first header is awaited from now, unless a request has begun
     * already (TLS 1.3 may report the handshake finished only as the first response is written).
     */
    synchronized void handshaken() {
        if (deadline != null) {
            awaitHeader();
        }
    }

    /**
     * Application bytes were read: between HTTP/1.1 requests they begin the next request, whose
     * header is then awaited (as Go's server waits without a deadline but the idle timeout for the
     * first bytes of the next request). {@code over} is the connection reading them.
     */
    void bytesRead(Connection over) {
        synchronized (this) {
            if (!betweenRequests || !isHttp1(over)) {
                return;
            }
        }
        awaitHeader();
    }

    /** A request's header is complete: it is no longer awaited. */
    synchronized void requestBegins() {
        cancel();
        betweenRequests = false;
    }

    /** A request ended; an HTTP/1.1 connection that carries on waits for its next request. */
    synchronized void requestEnds(boolean http1) {
        betweenRequests = http1;
    }

    /** The connection closed. */
    synchronized void closed() {
        cancel();
        betweenRequests = false;
    }

    private void cancel() {
        if (deadline != null) {
            deadline.cancel();
            deadline = null;
        }
    }

    private static void expire(ConnectionTimeouts timeouts) {
        synchronized (timeouts) {
            if (timeouts.deadline == null) {
                return;
            }
            timeouts.deadline = null;
        }
        timeouts.network.close(new TimeoutException("no complete request header within "
                + timeouts.readHeaderMillis + " ms"));
    }

    /** Whether the connection is Jetty's HTTP/1.x connection (not HTTP/2, not an upgraded one). */
    private static boolean isHttp1(Connection connection) {
        return connection instanceof ConnectionMetaData meta && meta.getHttpVersion() != null
                && meta.getHttpVersion().getVersion() < 20;
    }

    /** The timeouts of the TLS connection {@code request} came on, or null when it has none. */
    static ConnectionTimeouts of(Request request) {
        EndPoint endPoint = request.getConnectionMetaData().getConnection().getEndPoint();
        if (endPoint instanceof SslConnection.SslEndPoint ssl && ssl.getSslConnection() instanceof Timed timed) {
            return timed.timeouts();
        }
        return null;
    }

    /** A connection that keeps these timeouts. */
    interface Timed {
        ConnectionTimeouts timeouts();
    }

    /** Tells a request's connection when the request begins (its header complete) and when it ends. */
    static final class Customizer implements HttpConfiguration.Customizer {
        @Override
        public Request customize(Request request, HttpFields.Mutable responseHeaders) {
            ConnectionTimeouts timeouts = of(request);
            if (timeouts != null) {
                timeouts.requestBegins();
                boolean http1 = request.getConnectionMetaData().getHttpVersion().getVersion() < 20;
                // Reported before the stream completes: completing may read and begin the next request.
                request.addHttpStreamWrapper(stream -> new HttpStream.Wrapper(stream) {
                    @Override
                    public void succeeded() {
                        timeouts.requestEnds(http1);
                        super.succeeded();
                    }

                    @Override
                    public void failed(Throwable x) {
                        timeouts.requestEnds(false);
                        super.failed(x);
                    }
                });
            }
            return request;
        }
    }
}
