package io.kubelix.runtime.server;

import io.kubelix.api.server.UpgradedConnection;
import org.eclipse.jetty.io.AbstractConnection;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.util.Blocker;
import org.eclipse.jetty.util.BufferUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The Jetty connection an HTTP/1.1 connection is upgraded to by {@link JettyAPIResponse#upgrade}:
 * once open, it runs the protocol on a thread of the server's. It reads and writes its endpoint
 * only when its streams are used (blocking, on the protocol's threads), never on its own, so a
 * slow reader holds the client back as TCP would. The bytes the HTTP parser had already read past
 * the request come first.
 */
final class JettyUpgradedConnection extends AbstractConnection implements Connection.UpgradeTo, UpgradedConnection {
    private static final int BUFFER = 16 * 1024;
    private static final Logger LOG = LoggerFactory.getLogger(JettyUpgradedConnection.class);

    private final Consumer<UpgradedConnection> protocol;
    private final AtomicBoolean started = new AtomicBoolean();
    private final Input input = new Input();
    private final Output output = new Output();
    private ByteBuffer leftover = BufferUtil.EMPTY_BUFFER;

    JettyUpgradedConnection(EndPoint endPoint, Executor executor, Consumer<UpgradedConnection> protocol) {
        super(endPoint, executor);
        this.protocol = protocol;
    }

    @Override
    public void onUpgradeTo(ByteBuffer buffer) {
        if (BufferUtil.hasContent(buffer)) {
            leftover = BufferUtil.copy(buffer);
        }
    }

    @Override
    public void onOpen() {
        super.onOpen();
        start();
    }

    /**
     * Runs the protocol, once: when the connection opens, or when the 101 could not be sent (the
     * client went away), with the connection closed, so that the protocol frees what it holds.
     */
    void start() {
        if (!started.compareAndSet(false, true)) {
            return;
        }
        getExecutor().execute(() -> {
            try {
                protocol.accept(this);
            } catch (RuntimeException e) {
                LOG.warn("the protocol of an upgraded connection from {} failed", getEndPoint().getRemoteSocketAddress(), e);
                close();
            }
        });
    }

    /** Never called: the connection does not ask to be told of bytes to read; its input reads them. */
    @Override
    public void onFillable() {
    }

    /** The connection has no idle timeout, as a hijacked connection in Go has none; the caller closes it. */
    @Override
    public boolean onIdleExpired(TimeoutException timeout) {
        return false;
    }

    @Override
    public InputStream input() {
        return input;
    }

    @Override
    public OutputStream output() {
        return output;
    }

    @Override
    public void close() {
        getEndPoint().close();
    }

    private final class Input extends InputStream {
        private final ByteBuffer buffer = BufferUtil.allocate(BUFFER);

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            synchronized (JettyUpgradedConnection.this) {
                if (leftover.hasRemaining()) {
                    int n = Math.min(len, leftover.remaining());
                    leftover.get(b, off, n);
                    return n;
                }
            }
            while (!buffer.hasRemaining()) {
                if (!getEndPoint().isOpen()) {
                    throw new IOException("the connection is closed");
                }
                int filled = getEndPoint().fill(buffer);
                if (filled < 0) {
                    return -1;
                }
                if (filled == 0) {
                    try (Blocker.Callback fillable = Blocker.callback()) {
                        getEndPoint().fillInterested(fillable);
                        fillable.block();
                    }
                }
            }
            int n = Math.min(len, buffer.remaining());
            buffer.get(b, off, n);
            return n;
        }

        @Override
        public void close() {
            JettyUpgradedConnection.this.close();
        }
    }

    private final class Output extends OutputStream {
        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (!getEndPoint().isOpen() || getEndPoint().isOutputShutdown()) {
                throw new IOException("the connection is closed");
            }
            try (Blocker.Callback written = Blocker.callback()) {
                getEndPoint().write(written, ByteBuffer.wrap(b, off, len));
                written.block();
            }
        }

        @Override
        public void close() {
            getEndPoint().shutdownOutput();
        }
    }
}
