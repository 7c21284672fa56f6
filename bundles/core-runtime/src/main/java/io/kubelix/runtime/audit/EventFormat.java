package io.kubelix.runtime.audit;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.kubelix.api.request.UserInfo;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The two forms of {@code --audit-log-format}: {@code json}, one {@code audit.k8s.io/v1} Event per
 * line with kube's field order and omissions, and {@code legacy}, kube's one-line text
 * (audit.EventString).
 */
public enum EventFormat {
    json {
        @Override
        public byte[] line(Event ev) {
            ByteArrayOutputStream out = new ByteArrayOutputStream(768);
            write(ev, out, true);
            return out.toByteArray();
        }
    },
    legacy {
        @Override
        public byte[] line(Event ev) {
            return (legacyString(ev) + "\n").getBytes(StandardCharsets.UTF_8);
        }
    };

    private static final JsonFactory FACTORY = new JsonFactory();
    /** metav1.MicroTime: RFC 3339 with microseconds, in UTC. */
    static final DateTimeFormatter MICRO_TIME = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSX")
            .withZone(ZoneOffset.UTC);

    /**
     * {@link #MICRO_TIME}'s text, written digit by digit: two timestamps go into every event, and the
     * formatter's fraction printing (through BigDecimal) showed in the profile of an audited server.
     */
    static String microTime(Instant t) {
        java.time.LocalDateTime d = java.time.LocalDateTime.ofEpochSecond(t.getEpochSecond(), 0, ZoneOffset.UTC);
        if (d.getYear() < 0 || d.getYear() > 9999) {
            return MICRO_TIME.format(t);
        }
        char[] c = "0000-00-00T00:00:00.000000Z".toCharArray();
        digits(c, 0, 4, d.getYear());
        digits(c, 5, 2, d.getMonthValue());
        digits(c, 8, 2, d.getDayOfMonth());
        digits(c, 11, 2, d.getHour());
        digits(c, 14, 2, d.getMinute());
        digits(c, 17, 2, d.getSecond());
        digits(c, 20, 6, t.getNano() / 1000);
        return new String(c);
    }

    private static void digits(char[] c, int at, int width, int value) {
        for (int i = at + width - 1; i >= at; i--) {
            c[i] = (char) ('0' + value % 10);
            value /= 10;
        }
    }

    /** The event as this format writes it, with its line end. */
    public abstract byte[] line(Event ev);

    /** The format named by {@code --audit-log-format}. @throws IllegalArgumentException with kube's message */
    public static EventFormat named(String name) {
        for (EventFormat f : values()) {
            if (f.name().equals(name)) {
                return f;
            }
        }
        throw new IllegalArgumentException("invalid audit log format " + name + ", allowed formats are \"legacy,json\"");
    }

    /** Writes the event's JSON, followed by a line end when {@code newline}. */
    static void write(Event ev, java.io.OutputStream out, boolean newline) {
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            writeEvent(g, ev);
            g.flush();
            if (newline) {
                out.write('\n');
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void writeEvent(JsonGenerator g, Event ev) throws IOException {
        writeEvent(g, ev, true);
    }

    /** @param typed whether it has its kind and apiVersion (an EventList's items have not) */
    static void writeEvent(JsonGenerator g, Event ev, boolean typed) throws IOException {
        g.writeStartObject();
        if (typed) {
            g.writeStringField("kind", "Event");
            g.writeStringField("apiVersion", PolicyReader.API_VERSION);
        }
        g.writeStringField("level", ev.level().name());
        g.writeStringField("auditID", ev.auditID());
        g.writeStringField("stage", ev.stage().name());
        g.writeStringField("requestURI", ev.requestURI());
        g.writeStringField("verb", ev.verb());
        g.writeFieldName("user");
        user(g, ev.user());
        if (ev.impersonatedUser() != null) {
            g.writeFieldName("impersonatedUser");
            user(g, ev.impersonatedUser());
        }
        if (!ev.sourceIPs().isEmpty()) {
            g.writeArrayFieldStart("sourceIPs");
            for (String ip : ev.sourceIPs()) {
                g.writeString(ip);
            }
            g.writeEndArray();
        }
        stringIfSet(g, "userAgent", ev.userAgent());
        Event.ObjectReference ref = ev.objectRef();
        if (ref != null) {
            g.writeObjectFieldStart("objectRef");
            stringIfSet(g, "resource", ref.resource());
            stringIfSet(g, "namespace", ref.namespace());
            stringIfSet(g, "name", ref.name());
            stringIfSet(g, "uid", ref.uid());
            stringIfSet(g, "apiGroup", ref.apiGroup());
            stringIfSet(g, "apiVersion", ref.apiVersion());
            stringIfSet(g, "resourceVersion", ref.resourceVersion());
            stringIfSet(g, "subresource", ref.subresource());
            g.writeEndObject();
        }
        Event.ResponseStatus status = ev.responseStatus();
        if (status != null) {
            // metav1.Status: its ListMeta has no omitempty, hence "metadata":{} always.
            g.writeObjectFieldStart("responseStatus");
            g.writeObjectFieldStart("metadata");
            g.writeEndObject();
            stringIfSet(g, "status", status.status());
            stringIfSet(g, "message", status.message());
            stringIfSet(g, "reason", status.reason());
            if (status.details() != null) {
                g.writeFieldName("details");
                g.writeRawValue(status.details().toString());
            }
            if (status.code() != 0) {
                g.writeNumberField("code", status.code());
            }
            g.writeEndObject();
        }
        if (ev.requestObject() != null) {
            g.writeFieldName("requestObject");
            g.writeRawValue(new String(ev.requestObject(), StandardCharsets.UTF_8));
        }
        if (ev.responseObject() != null) {
            g.writeFieldName("responseObject");
            g.writeRawValue(new String(ev.responseObject(), StandardCharsets.UTF_8));
        }
        g.writeStringField("requestReceivedTimestamp", microTime(ev.requestReceivedTimestamp()));
        g.writeStringField("stageTimestamp", microTime(ev.stageTimestamp()));
        if (!ev.annotations().isEmpty()) {
            g.writeObjectFieldStart("annotations");
            // Go writes a map's keys sorted.
            for (Map.Entry<String, String> a : new TreeMap<>(ev.annotations()).entrySet()) {
                g.writeStringField(a.getKey(), a.getValue());
            }
            g.writeEndObject();
        }
        g.writeEndObject();
    }

    /** authentication/v1 UserInfo; an unknown user is {}. */
    private static void user(JsonGenerator g, UserInfo user) throws IOException {
        g.writeStartObject();
        if (user != null) {
            stringIfSet(g, "username", user.name());
            stringIfSet(g, "uid", user.uid());
            if (!user.groups().isEmpty()) {
                g.writeArrayFieldStart("groups");
                for (String group : user.groups()) {
                    g.writeString(group);
                }
                g.writeEndArray();
            }
            if (!user.extra().isEmpty()) {
                g.writeObjectFieldStart("extra");
                for (Map.Entry<String, List<String>> e : new TreeMap<>(user.extra()).entrySet()) {
                    g.writeArrayFieldStart(e.getKey());
                    for (String v : e.getValue()) {
                        g.writeString(v);
                    }
                    g.writeEndArray();
                }
                g.writeEndObject();
            }
        }
        g.writeEndObject();
    }

    private static void stringIfSet(JsonGenerator g, String field, String value) throws IOException {
        if (value != null && !value.isEmpty()) {
            g.writeStringField(field, value);
        }
    }

    /** audit.EventString: the legacy one-line form. */
    static String legacyString(Event ev) {
        String username = "<none>";
        String groups = "<none>";
        if (ev.user() != null && !ev.user().name().isEmpty()) {
            username = ev.user().name();
            if (!ev.user().groups().isEmpty()) {
                groups = quotedList(ev.user().groups());
            }
        }
        String asUser = "<self>";
        String asGroups = "<lookup>";
        if (ev.impersonatedUser() != null) {
            asUser = ev.impersonatedUser().name();
            if (!ev.impersonatedUser().groups().isEmpty()) {
                asGroups = quotedList(ev.impersonatedUser().groups());
            }
        }
        String namespace = ev.objectRef() != null && !ev.objectRef().namespace().isEmpty()
                ? ev.objectRef().namespace() : "<none>";
        String response = ev.responseStatus() != null ? Integer.toString(ev.responseStatus().code()) : "<deferred>";
        String ip = ev.sourceIPs().isEmpty() ? "<unknown>" : ev.sourceIPs().get(0);
        return rfc3339Nano(ev.requestReceivedTimestamp()) + " AUDIT: id=" + q(ev.auditID()) + " stage="
                + q(ev.stage().name()) + " ip=" + q(ip) + " method=" + q(ev.verb()) + " user=" + q(username)
                + " groups=" + q(groups) + " as=" + q(asUser) + " asgroups=" + q(asGroups) + " user-agent="
                + q(ev.userAgent()) + " namespace=" + q(namespace) + " uri=" + q(ev.requestURI()) + " response=\""
                + response + "\"";
    }

    private static String quotedList(List<String> values) {
        return values.stream().map(EventFormat::q).collect(Collectors.joining(","));
    }

    /** Go's time.RFC3339Nano: the fraction without trailing zeros, none when zero. */
    static String rfc3339Nano(Instant t) {
        String s = DateTimeFormatter.ISO_INSTANT.format(t);
        int dot = s.indexOf('.');
        if (dot < 0) {
            return s;
        }
        String fraction = s.substring(dot + 1, s.length() - 1).replaceAll("0+$", "");
        return s.substring(0, dot) + (fraction.isEmpty() ? "" : "." + fraction) + "Z";
    }

    /** Go's %q of a string. */
    static String q(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        b.append(String.format("\\x%02x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
