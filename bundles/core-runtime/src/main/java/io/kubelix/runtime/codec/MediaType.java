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

    /**
     * The media ranges of an Accept header in the order kube-apiserver tries them (goautoneg's
     * ParseAccept): by q-value, highest first, and among equal ones a range before a wildcard one,
     * otherwise in the order given. A range without a subtype (other than {@code *}) is dropped, and
     * {@code q} is not among the parameters.
     */
    public static List<MediaType> parseAcceptByPreference(String header) {
        List<MediaType> ranges = new ArrayList<>();
        List<Double> qs = new ArrayList<>();
        for (MediaType m : parseAccept(header)) {
            String type = m.type().equals("*") ? "*/*" : m.type();
            int slash = type.indexOf('/');
            if (slash < 0 || type.indexOf('/', slash + 1) >= 0) {
                continue;
            }
            Map<String, String> params = new LinkedHashMap<>(m.params());
            String q = params.remove("q");
            double quality = 1.0;
            if (q != null) {
                try {
                    quality = Double.parseDouble(q);
                } catch (NumberFormatException e) {
                    quality = 0; // Go's ParseFloat gives 0 with its error, which goautoneg ignores
                }
            }
            ranges.add(new MediaType(type, Map.copyOf(params)));
            qs.add(quality);
        }
        // An insertion sort with goautoneg's comparison, as Go's sort.Sort runs on short slices: the
        // comparison is not a strict order, so only this sort gives kube's order.
        for (int i = 1; i < ranges.size(); i++) {
            for (int j = i; j > 0 && preferred(ranges.get(j), qs.get(j), ranges.get(j - 1), qs.get(j - 1)); j--) {
                java.util.Collections.swap(ranges, j, j - 1);
                java.util.Collections.swap(qs, j, j - 1);
            }
        }
        return ranges;
    }

    private static boolean preferred(MediaType a, double qa, MediaType b, double qb) {
        if (qa > qb) {
            return true;
        }
        if (!a.mainType().equals("*") && b.mainType().equals("*")) {
            return true;
        }
        return !a.subType().equals("*") && b.subType().equals("*");
    }

    /** The part before the slash ({@code application}). */
    public String mainType() {
        int slash = type.indexOf('/');
        return slash < 0 ? type : type.substring(0, slash);
    }

    /** The part after the slash ({@code json}), or empty. */
    public String subType() {
        int slash = type.indexOf('/');
        return slash < 0 ? "" : type.substring(slash + 1);
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
