package io.kubelix.bench;

import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.http2.api.Session;
import org.eclipse.jetty.http2.api.Stream;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.frames.HeadersFrame;
import org.eclipse.jetty.http2.frames.ResetFrame;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Promise;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

import javax.net.ssl.SSLContext;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Watches over Jetty's HTTP/2 client at the stream level: each watch is a stream, its DATA frames go
 * straight to the {@link Watcher} as bytes, {@code watches-per-connection} streams share a
 * connection. This is the default watch client because it costs the client far less CPU per event
 * than {@code java.net.http} (which decodes, schedules and copies each frame through several
 * stages), and in these scenarios the client shares the machine's cores with the server.
 */
final class JettyHttp2 implements AutoCloseable {
    private final HTTP2Client client;
    private final SslContextFactory.Client tls;
    private final URI server;
    private final InetSocketAddress address;
    private final String token;
    private final int perSession;
    private final List<Session> sessions = new ArrayList<>();

    JettyHttp2(URI server, SSLContext ssl, boolean insecure, String token, int perSession) throws Exception {
        this.server = server;
        this.token = token;
        this.perSession = perSession;
        int port = server.getPort() > 0 ? server.getPort() : 443;
        this.address = new InetSocketAddress(server.getHost(), port);
        this.tls = new SslContextFactory.Client();
        tls.setSslContext(ssl);
        if (insecure) {
            tls.setEndpointIdentificationAlgorithm(null);
        }
        QueuedThreadPool threads = new QueuedThreadPool(16, 2);
        threads.setName("bench-jetty");
        threads.setDaemon(true);
        ClientConnector connector = new ClientConnector();
        connector.setSslContextFactory(tls);
        connector.setExecutor(threads);
        connector.setSelectors(1);
        connector.setIdleTimeout(java.time.Duration.ofHours(2));
        this.client = new HTTP2Client(connector);
        client.setIdleTimeout(TimeUnit.HOURS.toMillis(2));
        client.setStreamIdleTimeout(TimeUnit.HOURS.toMillis(2));
        client.start();
    }

    /** Opens watch number {@code i} on {@code pathAndQuery}; its bytes go to {@code w}. */
    void watch(int i, String pathAndQuery, Watcher w) throws Exception {
        open(session(i), pathAndQuery, new Reader() {
            @Override
            public void status(int status) {
                w.opened.complete(status);
            }

            @Override
            public void content(ByteBuffer bytes) {
                w.accept(bytes);
            }

            @Override
            public void end() {
                w.onComplete();
            }

            @Override
            public void failed(Throwable failure) {
                w.opened.complete(-1);
                w.onError(failure);
            }
        });
    }

    /**
     * A GET on connection {@code connection} (counted like watches), completing with the status
     * and, when {@code keep}, the body; otherwise only its length.
     */
    CompletableFuture<Body> get(int connection, String pathAndQuery, boolean keep) throws Exception {
        CompletableFuture<Body> result = new CompletableFuture<>();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        open(session(connection * perSession), pathAndQuery, new Reader() {
            private int status;
            private long length;

            @Override
            public void status(int status) {
                this.status = status;
            }

            @Override
            public void content(ByteBuffer b) {
                length += b.remaining();
                if (keep) {
                    byte[] copy = new byte[b.remaining()];
                    b.get(copy);
                    bytes.writeBytes(copy);
                }
            }

            @Override
            public void end() {
                result.complete(new Body(status, length, keep ? bytes.toByteArray() : null));
            }

            @Override
            public void failed(Throwable failure) {
                result.completeExceptionally(failure);
            }
        });
        return result;
    }

    /** What is done with a response as it arrives. */
    private interface Reader {
        void status(int status);

        /** The next bytes of the body, valid only during the call. */
        void content(ByteBuffer bytes);

        void end();

        /** The stream failed or was reset; nothing else is called after. */
        void failed(Throwable failure);
    }

    /** A GET of {@code pathAndQuery} on a stream of {@code session}, its response handed to {@code reader}. */
    private void open(Session session, String pathAndQuery, Reader reader) {
        HttpFields.Mutable headers = HttpFields.build().put(HttpHeader.ACCEPT, "application/json");
        if (token != null) {
            headers.put(HttpHeader.AUTHORIZATION, "Bearer " + token);
        }
        MetaData.Request request = new MetaData.Request("GET", HttpURI.from(server.resolve(pathAndQuery)),
                HttpVersion.HTTP_2, headers);
        session.newStream(new HeadersFrame(request, null, true), new Stream.Listener() {
            @Override
            public void onHeaders(Stream stream, HeadersFrame frame) {
                if (frame.getMetaData() instanceof MetaData.Response response) {
                    reader.status(response.getStatus());
                }
                if (frame.isEndStream()) {
                    reader.end();
                } else {
                    stream.demand();
                }
            }

            @Override
            public void onDataAvailable(Stream stream) {
                while (true) {
                    Stream.Data data = stream.readData();
                    if (data == null) {
                        stream.demand();
                        return;
                    }
                    boolean last = data.frame().isEndStream();
                    reader.content(data.frame().getByteBuffer());
                    data.release();
                    if (last) {
                        reader.end();
                        return;
                    }
                }
            }

            @Override
            public void onReset(Stream stream, ResetFrame frame, Callback callback) {
                reader.failed(new IOException("stream reset by the server, error " + frame.getError()));
                callback.succeeded();
            }

            @Override
            public void onFailure(Stream stream, int error, String reason, Throwable failure, Callback callback) {
                reader.failed(failure);
                callback.succeeded();
            }

            @Override
            public void onIdleTimeout(Stream stream, TimeoutException x, Promise<Boolean> promise) {
                promise.succeeded(false);
            }
        }).whenComplete((stream, failure) -> {
            if (failure != null) {
                reader.failed(failure);
            }
        });
    }

    /** A response: its status, its body's length, and the body when it was kept. */
    record Body(int status, long length, byte[] bytes) {
    }

    private synchronized Session session(int i) throws Exception {
        int c = i / perSession;
        while (sessions.size() <= c) {
            sessions.add(client.connect(tls, address, new Session.Listener() { }).get(10, TimeUnit.SECONDS));
        }
        return sessions.get(c);
    }

    @Override
    public void close() throws Exception {
        client.stop();
    }
}
