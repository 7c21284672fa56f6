package io.kubelix.runtime.endpoints;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A watch over HTTP/1.1 as a client that reads chunks whole sees it (urllib3, under the Python
 * clients, reads a chunk's size line, its data and the CRLF that ends it before handing it on):
 * each event's chunk arrives whole, its closing CRLF included, while no other event follows; the
 * stream ends with the last chunk, and the connection serves the next request, as kube-apiserver's
 * does (clients reuse it). Read from a raw socket, so nothing but the bytes on the wire is judged; a
 * CRLF held back until the next event would leave the read waiting, and the test failing.
 */
class WatchChunksHTTPTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CM = "/api/v1/namespaces/default/configmaps";
    /** Generous: how long a read waits for bytes that must come, never a measure of speed. */
    private static final int READ_TIMEOUT_MILLIS = 30_000;

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private InProcessAPIServer server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @ParameterizedTest(name = "watch cache {0}")
    @ValueSource(booleans = {true, false})
    void eachEventIsAWholeChunkAndTheStreamEndsWithTheLastChunk(boolean watchCache) throws Exception {
        server = new InProcessAPIServer(watchCache);
        try (Socket socket = new Socket("127.0.0.1", server.connector.getLocalPort())) {
            socket.setSoTimeout(READ_TIMEOUT_MILLIS);
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + CM + "?watch=true&timeoutSeconds=3 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            String head = readUntil(in, "\r\n\r\n").toLowerCase(Locale.ROOT);
            assertTrue(head.startsWith("http/1.1 200"), head);
            assertTrue(head.contains("\r\ntransfer-encoding: chunked\r\n"), head);
            assertTrue(head.contains("\r\ncontent-type: application/json\r\n"), head);

            for (String name : new String[]{"a", "b"}) {
                post("{\"metadata\":{\"name\":\"" + name + "\"}}");
                JsonNode event = JSON.readTree(readChunk(in));
                assertEquals("ADDED", event.path("type").asText());
                assertEquals(name, event.path("object").path("metadata").path("name").asText());
            }

            assertEquals("0\r\n\r\n", readUntil(in, "\r\n\r\n"), "the last chunk at the watch's timeout");
            assertNextRequestServed(socket);
        }
    }

    /**
     * A watch on a kept-alive connection that ends at its timeout leaves the connection to the
     * client's next request, as kubectl, client-go and urllib3 reuse it.
     */
    @org.junit.jupiter.api.Test
    void theConnectionServesTheNextRequestAfterAWatch() throws Exception {
        server = new InProcessAPIServer(true);
        post("{\"metadata\":{\"name\":\"a\"}}");
        try (Socket socket = new Socket("127.0.0.1", server.connector.getLocalPort())) {
            socket.setSoTimeout(READ_TIMEOUT_MILLIS);
            for (int watch = 0; watch < 2; watch++) {
                socket.getOutputStream().write(("GET " + CM + "?watch=true&timeoutSeconds=1 HTTP/1.1\r\n"
                        + "Host: 127.0.0.1\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                InputStream in = socket.getInputStream();
                String head = readUntil(in, "\r\n\r\n").toLowerCase(Locale.ROOT);
                assertTrue(head.startsWith("http/1.1 200"), head);
                assertFalse(head.contains("connection: close"), head);
                assertEquals("ADDED", JSON.readTree(readChunk(in)).path("type").asText());
                assertEquals("0\r\n\r\n", readUntil(in, "\r\n\r\n"), "the last chunk at the watch's timeout");
            }
            assertNextRequestServed(socket);
        }
    }

    /** A client that asks to close the connection gets its watch chunked all the same, then the close. */
    @org.junit.jupiter.api.Test
    void aWatchOnAConnectionTheClientClosesIsChunkedThenClosed() throws Exception {
        server = new InProcessAPIServer(true);
        post("{\"metadata\":{\"name\":\"a\"}}");
        try (Socket socket = new Socket("127.0.0.1", server.connector.getLocalPort())) {
            socket.setSoTimeout(READ_TIMEOUT_MILLIS);
            socket.getOutputStream().write(("GET " + CM + "?watch=true&timeoutSeconds=1 HTTP/1.1\r\n"
                    + "Host: 127.0.0.1\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            String head = readUntil(in, "\r\n\r\n").toLowerCase(Locale.ROOT);
            assertTrue(head.contains("\r\ntransfer-encoding: chunked\r\n"), head);
            assertEquals("ADDED", JSON.readTree(readChunk(in)).path("type").asText());
            assertEquals("0\r\n\r\n", readUntil(in, "\r\n\r\n"));
            assertEquals(-1, in.read(), "the connection is closed after the stream");
        }
    }

    /** A GET on the same connection is answered in full. */
    private static void assertNextRequestServed(Socket socket) throws IOException {
        socket.getOutputStream().write(("GET " + CM + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        InputStream in = socket.getInputStream();
        String head = readUntil(in, "\r\n\r\n").toLowerCase(Locale.ROOT);
        assertTrue(head.startsWith("http/1.1 200"), head);
        int length = Integer.parseInt(head.replaceAll("(?s).*\r\ncontent-length: (\\d+)\r\n.*", "$1"));
        JsonNode list = JSON.readTree(in.readNBytes(length));
        assertEquals("ConfigMapList", list.path("kind").asText(), list.toString());
    }

    /**
     * Clients that open watches and vanish without a word: their watchers, sockets and streams are
     * released within seconds, though no event is written to them.
     */
    @org.junit.jupiter.api.Test
    void watchesWhoseClientsVanishedAreReleasedWithoutWaitingForAnEvent() throws Exception {
        server = new InProcessAPIServer(true);
        post("{\"metadata\":{\"name\":\"a\"}}");
        int connections = server.connector.getConnectedEndPoints().size();
        // The server's own informers watch too, and may start meanwhile.
        long baseline = watchers();
        java.util.List<Socket> sockets = new java.util.ArrayList<>();
        long open = 0;
        try {
            for (int i = 0; i < 100; i++) {
                Socket socket = new Socket("127.0.0.1", server.connector.getLocalPort());
                socket.setSoTimeout(READ_TIMEOUT_MILLIS);
                sockets.add(socket);
                socket.getOutputStream().write(("GET " + CM + "?watch=true HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                assertTrue(readUntil(socket.getInputStream(), "\r\n\r\n").startsWith("HTTP/1.1 200"));
            }
            open = watchers();
            assertTrue(open >= baseline + 100, "every watch registered: " + open);
        } finally {
            for (Socket socket : sockets) {
                socket.close();
            }
        }
        long deadline = System.nanoTime() + 10_000_000_000L;
        while ((watchers() > open - 100 || server.connector.getConnectedEndPoints().size() > connections)
                && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertTrue(watchers() <= open - 100, "the vanished clients' watchers are gone: " + watchers() + " of " + open);
        assertEquals(connections, server.connector.getConnectedEndPoints().size(), "and their connections");
    }

    private long watchers() {
        return server.cachers.values().stream().mapToLong(c -> c.stats().watchers()).sum();
    }

    /** One chunk: its size line, then exactly that many bytes, then the CRLF that must follow them. */
    private static String readChunk(InputStream in) throws IOException {
        String sizeLine = readUntil(in, "\r\n");
        int size = Integer.parseInt(sizeLine.trim(), 16);
        assertTrue(size > 0, "a data chunk, not the end: " + sizeLine);
        byte[] data = in.readNBytes(size);
        assertEquals(size, data.length);
        assertEquals("\r\n", new String(in.readNBytes(2), StandardCharsets.US_ASCII), "the chunk's closing CRLF");
        String text = new String(data, StandardCharsets.UTF_8);
        assertTrue(text.endsWith("\n"), text);
        return text;
    }

    private static String readUntil(InputStream in, String end) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        while (!bytes.toString(StandardCharsets.UTF_8).endsWith(end)) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("connection closed after: " + bytes.toString(StandardCharsets.UTF_8));
            }
            bytes.write(b);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private void post(String body) throws Exception {
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(server.base.resolve(CM))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(201, response.statusCode(), response.body());
    }
}
