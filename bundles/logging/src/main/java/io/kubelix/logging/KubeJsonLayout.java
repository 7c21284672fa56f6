package io.kubelix.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.LayoutBase;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import org.slf4j.event.KeyValuePair;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/**
 * One JSON object per line, in the shape of kube-apiserver's {@code --logging-format=json}:
 * {@code ts} (seconds since the epoch, to the microsecond), {@code logger}, {@code msg}, the
 * line's key-value pairs as fields, then {@code v} (the verbosity that shows it) for anything
 * below ERROR; an ERROR has no {@code v}, and a throwable becomes {@code err} (its message) and
 * {@code stacktrace}. A log aggregator reads every line without a multi-line rule.
 */
public final class KubeJsonLayout extends LayoutBase<ILoggingEvent> {
    private static final JsonFactory JSON = new JsonFactory();

    @Override
    public String doLayout(ILoggingEvent event) {
        StringWriter out = new StringWriter(256);
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            Instant at = event.getInstant();
            g.writeFieldName("ts");
            g.writeNumber(BigDecimal.valueOf(at.getEpochSecond()).add(BigDecimal.valueOf(at.getNano() / 1000, 6)));
            g.writeStringField("logger", event.getLoggerName());
            g.writeStringField("msg", event.getFormattedMessage());
            List<KeyValuePair> pairs = event.getKeyValuePairs();
            if (pairs != null) {
                for (KeyValuePair kv : pairs) {
                    g.writeFieldName(kv.key);
                    writeValue(g, kv.value);
                }
            }
            IThrowableProxy thrown = event.getThrowableProxy();
            if (thrown != null) {
                g.writeStringField("err", thrown.getMessage() == null ? thrown.getClassName()
                        : thrown.getClassName() + ": " + thrown.getMessage());
                g.writeStringField("stacktrace", ThrowableProxyUtil.asString(thrown));
            }
            if (!event.getLevel().isGreaterOrEqual(Level.ERROR)) {
                g.writeNumberField("v", Verbosity.of(event.getLevel()));
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.append(CoreConstants.LINE_SEPARATOR).toString();
    }

    private static void writeValue(JsonGenerator g, Object value) throws IOException {
        if (value == null) {
            g.writeNull();
        } else if (value instanceof Boolean b) {
            g.writeBoolean(b);
        } else if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
            g.writeNumber(((Number) value).longValue());
        } else if (value instanceof Number n) {
            g.writeNumber(n.doubleValue());
        } else {
            g.writeString(value.toString());
        }
    }

    @Override
    public String getContentType() {
        return "application/json";
    }
}
