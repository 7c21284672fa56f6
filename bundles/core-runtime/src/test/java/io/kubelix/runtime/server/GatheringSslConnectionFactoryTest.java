package io.kubelix.runtime.server;

import io.kubelix.runtime.bootstrap.DataDirectory;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.TrustManagerFactory;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.Provider;
import java.security.cert.CertificateFactory;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The server's TLS wrap encrypts as many whole records as its buffer holds, and a client reads them
 * back as the bytes that went in, with either TLS provider.
 */
class GatheringSslConnectionFactoryTest {
    private static final int RECORD_CONTENT = 16 * 1024;

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"jdk", "conscrypt"})
    void aWrapFillsTheBufferWithWholeRecordsAndTheClientReadsTheSameBytes(String setting) throws Exception {
        SSLEngine[] pair = connectedPair(TlsProvider.choose(setting).provider());
        SSLEngine server = pair[0];
        SSLEngine client = pair[1];
        int packet = server.getSession().getPacketBufferSize();
        byte[] body = new byte[5 * RECORD_CONTENT + 100];
        new Random(7).nextBytes(body);
        ByteBuffer[] input = {ByteBuffer.wrap(body, 0, 9), ByteBuffer.wrap(body, 9, body.length - 9)};
        ByteBuffer output = ByteBuffer.allocateDirect(GatheringSslConnectionFactory.RECORDS * packet);

        SSLEngineResult first = GatheringSslConnectionFactory.wrapRecords(server, input, output);

        assertEquals(SSLEngineResult.Status.OK, first.getStatus());
        assertEquals(output.position(), first.bytesProduced());
        assertEquals(GatheringSslConnectionFactory.RECORDS, records(output), "one wrap fills the buffer with records");
        assertTrue(first.bytesConsumed() > (GatheringSslConnectionFactory.RECORDS - 1) * RECORD_CONTENT,
                "each record but the last is full, gathered across the input buffers: " + first.bytesConsumed());

        ByteBuffer received = ByteBuffer.allocate(body.length);
        output.flip();
        unwrapAll(client, output, received);
        output.clear();
        SSLEngineResult second = GatheringSslConnectionFactory.wrapRecords(server, input, output);
        assertEquals(body.length - first.bytesConsumed(), second.bytesConsumed(), "the rest fits in the next wrap");
        output.flip();
        unwrapAll(client, output, received);

        assertArrayEquals(body, received.array());
    }

    @ParameterizedTest
    @ValueSource(strings = {"jdk", "conscrypt"})
    void aBufferForOneRecordGetsOneRecordAsJettyWouldWrapIt(String setting) throws Exception {
        SSLEngine server = connectedPair(TlsProvider.choose(setting).provider())[0];
        ByteBuffer output = ByteBuffer.allocate(server.getSession().getPacketBufferSize());

        SSLEngineResult result = GatheringSslConnectionFactory.wrapRecords(server,
                new ByteBuffer[]{ByteBuffer.wrap(new byte[3 * RECORD_CONTENT])}, output);

        assertEquals(SSLEngineResult.Status.OK, result.getStatus());
        assertEquals(1, records(output));
        assertTrue(result.bytesConsumed() > RECORD_CONTENT / 2, "one full record: " + result.bytesConsumed());
    }

    @ParameterizedTest
    @ValueSource(strings = {"jdk", "conscrypt"})
    void aHandshakeStepIsWrappedAloneAndReportedAsTheEngineReportedIt(String setting) throws Exception {
        SSLContext context = serverContext(TlsProvider.choose(setting).provider());
        SSLEngine client = context.createSSLEngine("localhost", 443);
        client.setUseClientMode(true);
        client.beginHandshake();
        ByteBuffer output = ByteBuffer.allocate(GatheringSslConnectionFactory.RECORDS * client.getSession().getPacketBufferSize());

        SSLEngineResult hello = GatheringSslConnectionFactory.wrapRecords(client,
                new ByteBuffer[]{ByteBuffer.wrap(new byte[4 * RECORD_CONTENT])}, output);

        assertEquals(0, hello.bytesConsumed(), "no application data goes out before the handshake");
        assertTrue(hello.bytesProduced() > 0, "the ClientHello was written");
        assertEquals(HandshakeStatus.NEED_UNWRAP, hello.getHandshakeStatus());
    }

    /** The TLS records written into {@code buffer} (from 0 to its position), counted by their headers. */
    private static int records(ByteBuffer buffer) {
        int count = 0;
        int at = 0;
        while (at < buffer.position()) {
            assertEquals(23, buffer.get(at), "an application data record");
            at += 5 + ((buffer.get(at + 3) & 0xff) << 8 | buffer.get(at + 4) & 0xff);
            count++;
        }
        assertEquals(buffer.position(), at, "the records end where the bytes written end");
        return count;
    }

    /**
     * A server engine of {@code provider} and a client engine (the JDK's) that have completed a
     * handshake with each other.
     */
    private SSLEngine[] connectedPair(Provider provider) throws Exception {
        SSLContext serverContext = serverContext(provider);
        SSLEngine server = serverContext.createSSLEngine();
        server.setUseClientMode(false);
        SSLEngine client = clientContext().createSSLEngine("localhost", 443);
        client.setUseClientMode(true);
        handshake(client, server);
        return new SSLEngine[]{server, client};
    }

    private SSLContext serverContext(Provider provider) throws Exception {
        DataDirectory data = DataDirectory.prepare(dir.resolve("data"), List.of());
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(data.servingKeyStore(), data.keyStorePassword());
        SSLContext context = provider == null ? SSLContext.getInstance("TLS") : SSLContext.getInstance("TLS", provider);
        context.init(keys.getKeyManagers(), null, null);
        return context;
    }

    private SSLContext clientContext() throws Exception {
        DataDirectory data = DataDirectory.prepare(dir.resolve("data"), List.of());
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(data.caCertificate())) {
            trust.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trustManagers.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trustManagers.getTrustManagers(), null);
        return context;
    }

    /** Runs the TLS handshake between two engines through in-memory buffers. */
    private static void handshake(SSLEngine client, SSLEngine server) throws Exception {
        ByteBuffer toServer = ByteBuffer.allocate(64 * 1024);
        ByteBuffer toClient = ByteBuffer.allocate(64 * 1024);
        ByteBuffer sink = ByteBuffer.allocate(64 * 1024);
        client.beginHandshake();
        server.beginHandshake();
        for (int step = 0; step < 100; step++) {
            boolean clientDone = step(client, toServer, toClient, sink);
            boolean serverDone = step(server, toClient, toServer, sink);
            if (clientDone && serverDone) {
                // What the server sent last (a TLS 1.3 session ticket) is read before any data.
                toClient.flip();
                while (toClient.hasRemaining()) {
                    client.unwrap(toClient, sink);
                }
                return;
            }
        }
        throw new AssertionError("the handshake did not finish: client " + client.getHandshakeStatus()
                + ", server " + server.getHandshakeStatus());
    }

    /** One handshake step of {@code engine}: writes into {@code out}, reads from {@code in}; true when it is done. */
    private static boolean step(SSLEngine engine, ByteBuffer out, ByteBuffer in, ByteBuffer sink) throws Exception {
        switch (engine.getHandshakeStatus()) {
            case NEED_WRAP -> engine.wrap(ByteBuffer.allocate(0), out);
            case NEED_TASK -> engine.getDelegatedTask().run();
            case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
                in.flip();
                engine.unwrap(in, sink);
                in.compact();
            }
            default -> {
                return true;
            }
        }
        return false;
    }

    /** Reads every record in {@code from} into {@code to}, handling post-handshake messages as they come. */
    private static void unwrapAll(SSLEngine client, ByteBuffer from, ByteBuffer to) throws Exception {
        ByteBuffer plain = ByteBuffer.allocate(client.getSession().getApplicationBufferSize());
        while (from.hasRemaining()) {
            SSLEngineResult r = client.unwrap(from, plain);
            assertEquals(SSLEngineResult.Status.OK, r.getStatus(), r.toString());
            while (client.getHandshakeStatus() == HandshakeStatus.NEED_TASK) {
                client.getDelegatedTask().run();
            }
            to.put(plain.flip());
            plain.clear();
        }
    }
}
