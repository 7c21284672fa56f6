package io.kubelix.runtime.endpoints;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * What a client sends that cannot be read as a request URI or body is its 400, answered before
 * any handler reads it, with nothing logged as a server error; dot segments are never routed.
 * Requests are written on a socket, so nothing between the test and the server cleans them.
 */
class URIPolicyHTTPTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CM = "/api/v1/namespaces/default/configmaps";
    private static InProcessAPIServer server;

    @BeforeAll
    static void start() throws Exception {
        server = new InProcessAPIServer();
        String body = "{\"metadata\":{\"name\":\"cm\"}}";
        assertEquals(201, raw("POST " + CM + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + body.length() + "\r\nConnection: close\r\n\r\n" + body).code);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    @Test
    void malformedEscapesInTheQueryAreABadRequest() throws Exception {
        assertBadRequest(get(CM + "?x=%"), "invalid URL escape \"%\"");
        assertBadRequest(get(CM + "?labelSelector=a%zzb"), "invalid URL escape \"%zz\"");
        assertBadRequest(get(CM + "?labelSelector=%ff"), "invalid UTF-8 in the query: \"labelSelector=%ff\"");
        assertBadRequest(get(CM + "/cm?%"), "invalid URL escape \"%\"");
        assertEquals(200, get(CM + "?labelSelector=a%20in%20(b)&x=%E2%9C%93").code, "well-formed escapes are read");
    }

    @Test
    void dotSegmentsAreRefusedNotRouted() throws Exception {
        assertBadRequest(get(CM + "/.."), "Name parameter invalid: \"..\": may not be '..'");
        assertBadRequest(get(CM + "/."), "Name parameter invalid: \".\": may not be '.'");
        assertBadRequest(get("/api/v1/namespaces/.."), "Name parameter invalid: \"..\": may not be '..'");
        assertBadRequest(get(CM + "/../cm"), "Name parameter invalid: \"..\": may not be '..'");
        assertBadRequest(get("/api/v1/namespaces/../configmaps"),
                "invalid path \"/api/v1/namespaces/../configmaps\": it may not have a '..' segment");
        assertBadRequest(get("/api/v1/namespaces/default/./configmaps/cm"),
                "invalid path \"/api/v1/namespaces/default/./configmaps/cm\": it may not have a '.' segment");
        assertEquals(200, get(CM + "/cm").code);
    }

    @Test
    void anOverflowingChunkSizeIsABadRequestNotAServerError() throws Exception {
        PrintStream err = System.err;
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
        Reply r;
        try {
            r = raw("POST " + CM + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\nfffffffffffffffffffff\r\n{}\r\n0\r\n\r\n");
        } finally {
            System.setErr(err);
        }
        assertEquals(400, r.code, r.text);
        String logged = log.toString(StandardCharsets.UTF_8);
        assertFalse(logged.contains("ERROR") || logged.contains("\tat "), logged);
    }

    private static void assertBadRequest(Reply r, String message) throws Exception {
        assertEquals(400, r.code, r.text);
        JsonNode status = JSON.readTree(r.body());
        assertEquals("Status", status.path("kind").asText(), r.text);
        assertEquals("BadRequest", status.path("reason").asText(), r.text);
        assertEquals(400, status.path("code").asInt(), r.text);
        assertEquals(message, status.path("message").asText(), r.text);
    }

    private static Reply get(String pathAndQuery) throws Exception {
        return raw("GET " + pathAndQuery + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    }

    record Reply(int code, String text) {
        String body() {
            String b = text.substring(text.indexOf("\r\n\r\n") + 4);
            return b.substring(b.indexOf('{'), b.lastIndexOf('}') + 1);
        }
    }

    static Reply raw(String request) throws Exception {
        try (Socket s = new Socket("127.0.0.1", server.connector.getLocalPort())) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            String text = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return new Reply(Integer.parseInt(text.substring(9, 12)), text);
        }
    }
}
