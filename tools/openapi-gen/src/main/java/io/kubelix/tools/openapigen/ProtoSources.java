package io.kubelix.tools.openapigen;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * Kubernetes' protobuf messages as protoc wrote them into the Java sources of
 * {@code io.kubernetes:client-java-proto} (its {@code sources} jar): each message's fields with
 * their protobuf types, and the Go doc comments protoc copied into javadoc, which carry the
 * {@code +listType=}, {@code +patchMergeKey=}... markers of the Go types.
 */
final class ProtoSources {
    /** {@code <code>repeated .k8s.io.api.core.v1.ContainerPort ports = 6;</code>} and {@code map&lt;string, string&gt; data = 2;} */
    private static final Pattern FIELD = Pattern.compile(
            "<code>(?:(optional|repeated|required) )?(?:map&lt;(\\S+), (\\S+)&gt;|(\\S+)) (\\w+) = \\d+;</code>");
    private static final Pattern TYPE = Pattern.compile("Protobuf type \\{@code ([\\w.]+)}");
    private static final Pattern INTERFACE = Pattern.compile("protoc_insertion_point\\(interface_extends:([\\w.]+)\\)");

    /**
     * One protobuf field.
     *
     * @param name      the field name, which is the JSON name in Kubernetes' protos
     * @param repeated  a list
     * @param type      the element type: a scalar ({@code string}, {@code int64}...) or a message
     *                  ({@code .k8s.io.api.core.v1.Container}); the value type of a map
     * @param mapKey    the key type of a map, else null
     * @param comment   the doc comment, lines as written, markers included
     */
    record Field(String name, boolean repeated, String type, String mapKey, List<String> comment) {
    }

    /** One message: its doc comment and fields, in declaration order. */
    record Message(String name, List<String> comment, Map<String, Field> fields) {
    }

    private final Map<String, Message> messages = new LinkedHashMap<>();

    /** Reads every {@code .java} file of a sources jar. */
    static ProtoSources read(ZipInputStream jar) throws IOException {
        ProtoSources sources = new ProtoSources();
        for (ZipEntry e = jar.getNextEntry(); e != null; e = jar.getNextEntry()) {
            if (e.getName().endsWith(".java")) {
                sources.parse(new BufferedReader(new InputStreamReader(jar, StandardCharsets.UTF_8)));
            }
        }
        return sources;
    }

    /** The message of a full protobuf name ({@code k8s.io.api.core.v1.ConfigMap}), or null. */
    Message message(String fullName) {
        return messages.get(fullName);
    }

    /** Every message, by full name. */
    Map<String, Message> messages() {
        return messages;
    }

    private void parse(BufferedReader in) throws IOException {
        String current = null;
        List<String> pre = List.of();
        List<String> collecting = null;
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            String t = line.trim();
            if (t.startsWith("/**")) {
                pre = List.of();
                continue;
            }
            if (t.equals("* <pre>")) {
                collecting = new ArrayList<>();
                continue;
            }
            if (collecting != null) {
                if (t.equals("* </pre>")) {
                    pre = collecting;
                    collecting = null;
                } else {
                    collecting.add(unescape(t.equals("*") ? "" : t.startsWith("* ") ? t.substring(2) : t));
                }
                continue;
            }
            Matcher m = INTERFACE.matcher(t);
            if (m.find()) {
                current = m.group(1);
                messages.computeIfAbsent(current, n -> new Message(n, new ArrayList<>(), new LinkedHashMap<>()));
                continue;
            }
            m = TYPE.matcher(t);
            if (m.find()) {
                // A message's own javadoc follows its OrBuilder interface: the fields are read by now.
                String name = m.group(1);
                Message msg = messages.computeIfAbsent(name, n -> new Message(n, new ArrayList<>(), new LinkedHashMap<>()));
                if (msg.comment().isEmpty()) {
                    msg.comment().addAll(pre);
                }
                current = null;
                continue;
            }
            if (current == null) {
                continue;
            }
            m = FIELD.matcher(t);
            if (m.find()) {
                boolean map = m.group(2) != null;
                Field f = new Field(m.group(5), "repeated".equals(m.group(1)), map ? m.group(3) : m.group(4),
                        map ? m.group(2) : null, List.copyOf(pre));
                messages.get(current).fields().putIfAbsent(f.name(), f);
            }
        }
    }

    /** protoc's javadoc escapes. */
    private static String unescape(String s) {
        return s.replace("*&#47;", "*/").replace("&#64;", "@").replace("&lt;", "<").replace("&gt;", ">")
                .replace("&#39;", "'").replace("&quot;", "\"").replace("&#92;", "\\").replace("&amp;", "&");
    }
}
