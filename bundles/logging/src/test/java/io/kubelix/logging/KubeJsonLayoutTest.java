package io.kubelix.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KubeJsonLayoutTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final LoggerContext context = new LoggerContext();
    private final ListAppender<ILoggingEvent> events = new ListAppender<>();
    private final KubeJsonLayout layout = new KubeJsonLayout();
    private final KeyValuesConverter kv = new KeyValuesConverter();
    private Logger log;

    @BeforeEach
    void setUp() {
        events.setContext(context);
        events.start();
        layout.setContext(context);
        layout.start();
        log = context.getLogger("io.kubelix.runtime.httplog");
        log.setLevel(Level.TRACE);
        log.addAppender(events);
    }

    private JsonNode line(ILoggingEvent e) throws Exception {
        String text = layout.doLayout(e);
        assertTrue(text.endsWith(System.lineSeparator()), text);
        assertFalse(text.strip().contains("\n"), "one line per event: " + text);
        return JSON.readTree(text);
    }

    @Test
    void aStructuredLineHasKubesFieldsAndItsPairs() throws Exception {
        log.atDebug().setMessage("HTTP").addKeyValue("verb", "LIST").addKeyValue("URI", "/api/v1/pods?limit=500")
                .addKeyValue("latency", "2.5ms").addKeyValue("resp", 200).addKeyValue("hijacked", false).log();
        JsonNode line = line(events.list.get(0));
        assertEquals(List.of("ts", "logger", "msg", "verb", "URI", "latency", "resp", "hijacked", "v"),
                iterable(line.fieldNames()));
        assertEquals("HTTP", line.get("msg").asText());
        assertEquals("/api/v1/pods?limit=500", line.get("URI").asText());
        assertTrue(line.get("resp").isIntegralNumber());
        assertEquals(200, line.get("resp").asInt());
        assertTrue(line.get("hijacked").isBoolean());
        assertEquals(3, line.get("v").asInt(), "DEBUG shows from -v=3, as kube's request log");
        double ts = line.get("ts").asDouble();
        assertTrue(Math.abs(ts - System.currentTimeMillis() / 1000.0) < 60, "seconds since the epoch: " + ts);
        assertEquals(" verb=\"LIST\" URI=\"/api/v1/pods?limit=500\" latency=\"2.5ms\" resp=200 hijacked=false",
                kv.convert(events.list.get(0)));
    }

    @Test
    void messagesAreEscapedAndFormatted() throws Exception {
        log.info("a \"quoted\" {} with\nnew line and \\ backslash", "argument");
        JsonNode line = line(events.list.get(0));
        assertEquals("a \"quoted\" argument with\nnew line and \\ backslash", line.get("msg").asText());
        assertEquals(0, line.get("v").asInt());
        assertEquals("", kv.convert(events.list.get(0)), "no pairs, nothing after the message");
    }

    @Test
    void anErrorCarriesItsThrowableAndNoVerbosity() throws Exception {
        log.error("storage failed", new IllegalStateException("etcd is down"));
        JsonNode line = line(events.list.get(0));
        assertFalse(line.has("v"), line.toString());
        assertEquals("java.lang.IllegalStateException: etcd is down", line.get("err").asText());
        assertTrue(line.get("stacktrace").asText().contains("KubeJsonLayoutTest"), line.toString());
    }

    @Test
    void textValuesAreQuotedAsGoQuotesThem() {
        log.atInfo().setMessage("m").addKeyValue("userAgent", "kubectl \"x\"\t\u0001").log();
        assertEquals(" userAgent=\"kubectl \\\"x\\\"\\t\\x01\"", kv.convert(events.list.get(0)));
    }

    @Test
    void traceIsShownFromVerbositySix() throws Exception {
        log.trace("fine detail");
        assertEquals(6, line(events.list.get(0)).get("v").asInt());
    }

    private static <T> List<T> iterable(java.util.Iterator<T> it) {
        List<T> out = new java.util.ArrayList<>();
        it.forEachRemaining(out::add);
        return out;
    }
}
