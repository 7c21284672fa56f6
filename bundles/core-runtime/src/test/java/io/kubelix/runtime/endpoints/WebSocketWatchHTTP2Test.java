package io.kubelix.runtime.endpoints;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.eclipse.jetty.http.HostPortHttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpScheme;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.http2.api.Session;
import org.eclipse.jetty.http2.api.Stream;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.frames.HeadersFrame;
import org.eclipse.jetty.http2.frames.SettingsFrame;
import org.eclipse.jetty.util.BufferUtil;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * A watch over a WebSocket opened on HTTP/2 (RFC 8441): the server announces extended CONNECT, the
 * client's {@code CONNECT} with {@code :protocol websocket} is answered 200, and the stream then
 * carries WebSocket frames as an HTTP/1.1 upgrade's connection does: each event one text message,
 * a normal close (1000) at the watch's timeout. Jetty's HTTP/2 client speaks the frames; the
 * WebSocket frames are read as the bytes the server sends (unmasked, as a server's are).
 */
class WebSocketWatchHTTP2Test {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CM = "/api/v1/namespaces/default/configmaps";
    /** Generous: how long to wait for what must come, never a measure of speed. */
    private static final long WAIT_SECONDS = 30;

    private final HttpClient http1 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final HTTP2Client http2 = new HTTP2Client();
    private InProcessAPIServer server;

    @AfterEach
    void stop() throws Exception {
        http2.stop();
        if (server != null) {
            server.close();
        }
    }

    @Test
    void eachEventIsOneTextMessageAndTheWatchEndsWithANormalClose() throws Exception {
        server = new InProcessAPIServer(true);
        http2.start();
        CompletableFuture<Integer> connectProtocol = new CompletableFuture<>();
        Session session = http2.connect(new InetSocketAddress("127.0.0.1", server.connector.getLocalPort()),
                new Session.Listener() {
                    @Override
                    public void onSettings(Session session, SettingsFrame frame) {
                        connectProtocol.complete(frame.getSettings().get(SettingsFrame.ENABLE_CONNECT_PROTOCOL));
                    }
                }).get(WAIT_SECONDS, TimeUnit.SECONDS);
        assertEquals(1, connectProtocol.get(WAIT_SECONDS, TimeUnit.SECONDS), "SETTINGS_ENABLE_CONNECT_PROTOCOL");

        WebSocketFrames frames = new WebSocketFrames();
        HttpFields fields = HttpFields.build().put(HttpHeader.SEC_WEBSOCKET_VERSION, "13");
        MetaData.ConnectRequest connect = new MetaData.ConnectRequest(HttpScheme.HTTP,
                new HostPortHttpField("127.0.0.1:" + server.connector.getLocalPort()),
                CM + "?watch=true&timeoutSeconds=3", fields, "websocket");
        session.newStream(new HeadersFrame(connect, null, false), frames).get(WAIT_SECONDS, TimeUnit.SECONDS);
        assertEquals(200, frames.status.get(WAIT_SECONDS, TimeUnit.SECONDS), "the CONNECT's answer");

        post("{\"metadata\":{\"name\":\"a\"},\"data\":{\"k\":\"1\"}}");
        Frame added = frames.next();
        assertEquals(0x1, added.opCode, "a text message");
        JsonNode event = JSON.readTree(added.payload);
        assertEquals("ADDED", event.path("type").asText());
        assertEquals("a", event.path("object").path("metadata").path("name").asText());

        Frame close = frames.next();
        assertEquals(0x8, close.opCode, "a close at the watch's timeout");
        assertEquals(1000, ((close.payload[0] & 0xff) << 8) | (close.payload[1] & 0xff));
    }

    private void post(String body) throws Exception {
        HttpResponse<String> response = http1.send(HttpRequest.newBuilder(server.base.resolve(CM))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(201, response.statusCode(), response.body());
    }

    private record Frame(int opCode, byte[] payload) {
    }

    /** The stream's answer and the WebSocket frames its DATA frames carry, whole. */
    private static final class WebSocketFrames implements Stream.Listener {
        final CompletableFuture<Integer> status = new CompletableFuture<>();
        private final BlockingQueue<Frame> frames = new LinkedBlockingQueue<>();
        private final ByteArrayOutputStream pending = new ByteArrayOutputStream();

        @Override
        public void onHeaders(Stream stream, HeadersFrame frame) {
            if (frame.getMetaData() instanceof MetaData.Response response) {
                status.complete(response.getStatus());
            }
            stream.demand();
        }

        @Override
        public void onDataAvailable(Stream stream) {
            Stream.Data data = stream.readData();
            if (data != null) {
                ByteBuffer bytes = data.frame().getByteBuffer();
                pending.writeBytes(BufferUtil.toArray(bytes));
                data.release();
                parse();
                if (data.frame().isEndStream()) {
                    return;
                }
            }
            stream.demand();
        }

        /** Takes every complete frame off the bytes received (server frames are unmasked). */
        private synchronized void parse() {
            byte[] b = pending.toByteArray();
            int at = 0;
            while (b.length - at >= 2) {
                int opCode = b[at] & 0x0f;
                long length = b[at + 1] & 0x7f;
                int header = 2;
                if (length == 126) {
                    if (b.length - at < 4) {
                        break;
                    }
                    length = ((b[at + 2] & 0xff) << 8) | (b[at + 3] & 0xff);
                    header = 4;
                } else if (length == 127) {
                    if (b.length - at < 10) {
                        break;
                    }
                    length = ByteBuffer.wrap(b, at + 2, 8).getLong();
                    header = 10;
                }
                if (b.length - at - header < length) {
                    break;
                }
                byte[] payload = new byte[(int) length];
                System.arraycopy(b, at + header, payload, 0, payload.length);
                frames.add(new Frame(opCode, payload));
                at += header + (int) length;
            }
            pending.reset();
            pending.write(b, at, b.length - at);
        }

        Frame next() throws InterruptedException {
            Frame frame = frames.poll(WAIT_SECONDS, TimeUnit.SECONDS);
            assertNotNull(frame, "no WebSocket frame arrived");
            return frame;
        }
    }
}
