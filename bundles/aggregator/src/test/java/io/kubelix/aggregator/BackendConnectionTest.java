package io.kubelix.aggregator;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLSocket;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The proxy's HTTP/1.1 connections against a TLS server that answers scripted responses on one
 * connection: a connection is kept for the next exchange when its response ended cleanly, and a
 * chunked body's chunks are passed on as they come, before the next one arrives.
 */
class BackendConnectionTest {
    private final ProxyTransports transports = new ProxyTransports(new ProxyClientCertificate(null, null));
    private final LinkedBlockingQueue<String> heads = new LinkedBlockingQueue<>();
    private TlsBackend backend;

    @BeforeEach
    void startBackend() throws Exception {
        backend = TlsBackend.start();
    }

    @AfterEach
    void stop() throws IOException {
        transports.clear();
        backend.socket().close();
    }

    @Test
    void aConnectionWhoseResponseEndedCleanlyCarriesTheNextExchange() throws Exception {
        serve(List.of("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nfirst",
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nsec\r\n3;x=y\r\nond\r\n0\r\n\r\n",
                "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\nthird"), null);

        BackendConnection first = transports.connection(backend.key(), "127.0.0.1", backend.port());
        assertEquals("first", exchange(first, true));
        BackendConnection second = transports.connection(backend.key(), "127.0.0.1", backend.port());
        assertSame(first, second);
        assertTrue(second.reused());
        assertEquals("second", exchange(second, true));
        assertEquals("third", exchange(transports.connection(backend.key(), "127.0.0.1", backend.port()), false));
        assertTrue(heads.poll(5, TimeUnit.SECONDS).startsWith("GET /apis/sample.kubelix.io/v1 HTTP/1.1\r\n"));
    }

    @Test
    void aChunkIsPassedOnBeforeTheNextArrives() throws Exception {
        CountDownLatch firstSeen = new CountDownLatch(1);
        serve(List.of("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nevent1\r\n",
                "6\r\nevent2\r\n0\r\n\r\n"), firstSeen);
        BackendConnection connection = transports.connection(backend.key(), "127.0.0.1", backend.port());
        connection.writeHead("GET /watch HTTP/1.1\r\nHost: x\r\n\r\n");
        connection.output().flush();
        ResponseHead head = ResponseHead.read(connection.input());
        ByteArrayOutputStream flushed = new ByteArrayOutputStream();
        OutputStream client = new ByteArrayOutputStream() {
            @Override
            public void flush() {
                if (size() > 0 && flushed.size() == 0) {
                    flushed.writeBytes(toByteArray());
                    firstSeen.countDown();
                }
            }
        };

        assertTrue(connection.relayBody(head, false, client));
        assertEquals("event1", flushed.toString(StandardCharsets.US_ASCII),
                "the first event reached the client while the second had not been sent");
        assertEquals("event1event2", client.toString());
    }

    private String exchange(BackendConnection connection, boolean keptAlive) throws IOException {
        connection.writeHead("GET /apis/sample.kubelix.io/v1 HTTP/1.1\r\nHost: x\r\n\r\n");
        connection.output().flush();
        ResponseHead head = ResponseHead.read(connection.input());
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        assertEquals(keptAlive, connection.relayBody(head, false, body));
        if (keptAlive) {
            transports.release(backend.key(), "127.0.0.1", backend.port(), connection);
        } else {
            connection.close();
        }
        return body.toString(StandardCharsets.US_ASCII);
    }

    /**
     * Accepts one connection and writes the answers one after another, each after a request head
     * (or, for the parts of one answer, after {@code between} opens).
     */
    private void serve(List<String> answers, CountDownLatch between) {
        CompletableFuture.runAsync(() -> {
            try (SSLSocket s = (SSLSocket) backend.socket().accept()) {
                InputStream in = s.getInputStream();
                OutputStream out = s.getOutputStream();
                for (int i = 0; i < answers.size(); i++) {
                    if (between == null || i == 0) {
                        heads.add(readHead(in));
                    } else {
                        assertTrue(between.await(5, TimeUnit.SECONDS));
                    }
                    out.write(answers.get(i).getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                }
                assertFalse(s.isClosed());
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int c = in.read();
            if (c < 0) {
                throw new IOException("closed");
            }
            head.write(c);
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }
}
