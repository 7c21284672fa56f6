package io.kubelix.runtime.codec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One media range of a Content-Type or Accept header, with its parameters; Kubernetes uses the
 * parameters {@code as}, {@code g} and {@code v} to ask for Tables and discovery documents.
 */
public record MediaType(String type, Map<String, String> params) {
    public static final String JSON = "application/json";
    public static final String YAML = "application/yaml";

    public static MediaType parse(String value) {
        String[] parts = value.split(";", -1); // -1: ";;;" still has a (blank) type part
        String type = parts[0].trim().toLowerCase(Locale.ROOT);
        Map<String, String> params = new LinkedHashMap<>();
        for (int i = 1; i < parts.length; i++) {
            String p = parts[i].trim();
            int eq = p.indexOf('=');
            if (eq > 0) {
                params.put(p.substring(0, eq).trim().toLowerCase(Locale.ROOT), unquote(p.substring(eq + 1).trim()));
            }
        }
        return new MediaType(type, Map.copyOf(params));
    }

    /** The media ranges of an Accept header in the order given (Kubernetes clients list preferences in order). */
    public static List<MediaType> parseAccept(String header) {
        List<MediaType> out = new ArrayList<>();
        if (header == null || header.isBlank()) {
            return out;
        }
        for (String range : header.split(",")) {
            if (!range.isBlank()) {
                out.add(parse(range));
            }
        }
        return out;
    }

    public String param(String name) {
        return params.get(name);
    }

    public boolean isJson() {
        return type.equals(JSON) || type.equals("*/*") || type.equals("application/*");
    }

    public boolean isYaml() {
        return type.equals(YAML) || type.equals("application/x-yaml") || type.equals("text/yaml");
    }

    private static String unquote(String s) {
        return s.length() >= 2 && s.startsWith("\"") && s.endsWith("\"") ? s.substring(1, s.length() - 1) : s;
    }
}
