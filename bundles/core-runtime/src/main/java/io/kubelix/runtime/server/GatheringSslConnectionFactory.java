package io.kubelix.runtime.server;

import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.RetainableByteBuffer;
import org.eclipse.jetty.io.ssl.SslConnection;
import org.eclipse.jetty.io.ssl.SslHandshakeListener;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;
import java.nio.ByteBuffer;

/**
 * TLS connections that send up to {@value #RECORDS} records per socket write. Jetty's
 * {@link SslConnection} encrypts one record (at most 16 KiB of content) into a buffer that holds one,
 * and writes it before it encrypts the next, so a 7 MiB LIST costs some 450 write system calls,
 * each of which on loopback also wakes the reader. Here the connection's buffers hold
 * {@value #RECORDS} records and a wrap encrypts records while another fits, so the same LIST takes a
 * third of the writes. Nothing else changes: the records, their order and their sizes are the same.
 *
 * <p>Each connection also keeps kube-apiserver's read-header deadline ({@link ConnectionTimeouts}):
 * it sees the connection open, its handshake end and the application bytes read.
 */
final class GatheringSslConnectionFactory extends SslConnectionFactory {
    /**
     * Records per write: three 16 KiB records fit one 64 KiB loopback segment, and a buffer for
     * them stays within the sizes Jetty's default buffer pool keeps for reuse.
     */
    static final int RECORDS = 3;

    private final long readHeaderMillis;

    /** @param readHeaderMillis how long a connection has for its handshake and for each request's header */
    GatheringSslConnectionFactory(SslContextFactory.Server tls, String nextProtocol, long readHeaderMillis) {
        super(tls, nextProtocol);
        this.readHeaderMillis = readHeaderMillis;
    }

    @Override
    protected SslConnection newSslConnection(Connector connector, EndPoint endPoint, SSLEngine engine) {
        ConnectionTimeouts timeouts = new ConnectionTimeouts(connector.getScheduler(), endPoint, readHeaderMillis);
        return new TimedSslConnection(new Larger(connector.getByteBufferPool()), connector, endPoint, engine, timeouts);
    }

    private final class TimedSslConnection extends SslConnection implements ConnectionTimeouts.Timed {
        private final ConnectionTimeouts timeouts;

        TimedSslConnection(ByteBufferPool pool, Connector connector, EndPoint endPoint, SSLEngine engine,
                           ConnectionTimeouts timeouts) {
            super(pool, connector.getExecutor(), getSslContextFactory(), endPoint, engine, isDirectBuffersForEncryption(),
                    isDirectBuffersForDecryption());
            this.timeouts = timeouts;
            addHandshakeListener(new SslHandshakeListener() {
                @Override
                public void handshakeSucceeded(Event event) {
                    timeouts.handshaken();
                }
            });
        }

        @Override
        public ConnectionTimeouts timeouts() {
            return timeouts;
        }

        @Override
        public void onOpen() {
            timeouts.awaitHeader();
            super.onOpen();
        }

        @Override
        public void onClose(Throwable cause) {
            timeouts.closed();
            super.onClose(cause);
        }

        @Override
        protected SslEndPoint newSslEndPoint() {
            return new SslEndPoint() {
                @Override
                public int fill(ByteBuffer buffer) throws java.io.IOException {
                    int filled = super.fill(buffer);
                    if (filled > 0) {
                        timeouts.bytesRead(getConnection());
                    }
                    return filled;
                }
            };
        }

        @Override
        protected SSLEngineResult wrap(SSLEngine sslEngine, ByteBuffer[] input, ByteBuffer output) throws SSLException {
            return wrapRecords(sslEngine, input, output);
        }
    }

    /**
     * Encrypts {@code input} into {@code output} one record after another while a whole record
     * still fits and input is left; stops at the first result that is not a plain OK (a handshake
     * step, a close, an overflow) and reports it, with the bytes consumed and produced in total.
     */
    static SSLEngineResult wrapRecords(SSLEngine engine, ByteBuffer[] input, ByteBuffer output) throws SSLException {
        SSLEngineResult result = engine.wrap(input, output);
        int consumed = result.bytesConsumed();
        int produced = result.bytesProduced();
        int record = engine.getSession().getPacketBufferSize();
        int wraps = 1;
        while (isPlainOk(result) && result.bytesConsumed() > 0 && output.remaining() >= record && hasRemaining(input)) {
            result = engine.wrap(input, output);
            consumed += result.bytesConsumed();
            produced += result.bytesProduced();
            wraps++;
        }
        return wraps == 1 ? result : new SSLEngineResult(result.getStatus(), result.getHandshakeStatus(), consumed, produced);
    }

    private static boolean isPlainOk(SSLEngineResult result) {
        return result.getStatus() == SSLEngineResult.Status.OK
                && result.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NOT_HANDSHAKING;
    }

    private static boolean hasRemaining(ByteBuffer[] buffers) {
        for (ByteBuffer b : buffers) {
            if (b.hasRemaining()) {
                return true;
            }
        }
        return false;
    }

    /**
     * The connector's pool, asked for {@value #RECORDS} times what the connection asks: its
     * buffers are sized for one record (or one record's content).
     */
    private static final class Larger extends ByteBufferPool.Wrapper {
        Larger(ByteBufferPool pool) {
            super(pool);
        }

        @Override
        public RetainableByteBuffer acquire(int size, boolean direct) {
            return super.acquire(size * RECORDS, direct);
        }
    }
}
