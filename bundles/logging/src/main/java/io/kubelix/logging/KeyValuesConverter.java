package io.kubelix.logging;

import ch.qos.logback.classic.pattern.ClassicConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import org.slf4j.event.KeyValuePair;

import java.util.List;

/**
 * {@code %kv}: a structured line's key-value pairs after its message, as kube's text logs write
 * them ({@code verb="GET" URI="/api/v1/pods" resp=200}): a space before each pair, strings quoted
 * with Go's escapes for quotes, backslashes and control characters, numbers and booleans bare;
 * nothing at all for a line without pairs.
 */
public final class KeyValuesConverter extends ClassicConverter {
    @Override
    public String convert(ILoggingEvent event) {
        List<KeyValuePair> pairs = event.getKeyValuePairs();
        if (pairs == null || pairs.isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder();
        for (KeyValuePair kv : pairs) {
            out.append(' ').append(kv.key).append('=');
            if (kv.value instanceof Number || kv.value instanceof Boolean) {
                out.append(kv.value);
            } else {
                quote(out, String.valueOf(kv.value));
            }
        }
        return out.toString();
    }

    private static void quote(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        out.append(String.format("\\x%02x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
