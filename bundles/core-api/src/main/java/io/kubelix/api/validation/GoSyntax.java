package io.kubelix.api.validation;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Collection;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * A value already written as Go's {@code %#v} prints it, which kube's field errors show for maps,
 * lists and structs ({@code map[string]string{"app":"web"}}); a {@link io.kubelix.api.errors.FieldError}
 * prints it as it is rather than quoted.
 *
 * @param text the Go rendering
 */
public record GoSyntax(String text) {

    @Override
    public String toString() {
        return text;
    }

    /** A string list: {@code []string{"a", "b"}}. */
    public static GoSyntax strings(Collection<String> values) {
        return new GoSyntax(values.stream().map(GoSyntax::quote).collect(Collectors.joining(", ", "[]string{", "}")));
    }

    /** A map of strings (a labels map), keys sorted as Go prints them: {@code map[string]string{"a":"b"}}; nil when absent. */
    public static GoSyntax stringMap(JsonNode map) {
        if (map == null || !map.isObject()) {
            return new GoSyntax("map[string]string(nil)");
        }
        return new GoSyntax(sorted(map).entrySet().stream()
                .map(e -> quote(e.getKey()) + ":" + quote(e.getValue()))
                .collect(Collectors.joining(", ", "map[string]string{", "}")));
    }

    /** A metav1.LabelSelector struct as %#v prints it, as in kube's "field is immutable" message of a selector. */
    public static GoSyntax labelSelector(JsonNode selector) {
        if (selector == null || !selector.isObject()) {
            return new GoSyntax("null");
        }
        String labels = selector.path("matchLabels").isObject() ? stringMap(selector.get("matchLabels")).text()
                : "map[string]string(nil)";
        String exprs;
        if (selector.path("matchExpressions").isArray() && !selector.path("matchExpressions").isEmpty()) {
            StringBuilder b = new StringBuilder("[]v1.LabelSelectorRequirement{");
            boolean first = true;
            for (JsonNode e : selector.get("matchExpressions")) {
                b.append(first ? "" : ", ").append("v1.LabelSelectorRequirement{Key:").append(quote(e.path("key").asText("")))
                        .append(", Operator:").append(quote(e.path("operator").asText(""))).append(", Values:");
                if (e.path("values").isArray()) {
                    java.util.List<String> vs = new java.util.ArrayList<>();
                    e.get("values").forEach(v -> vs.add(v.asText()));
                    b.append(strings(vs).text());
                } else {
                    b.append("[]string(nil)");
                }
                b.append('}');
                first = false;
            }
            exprs = b.append('}').toString();
        } else {
            exprs = "[]v1.LabelSelectorRequirement(nil)";
        }
        return new GoSyntax("v1.LabelSelector{MatchLabels:" + labels + ", MatchExpressions:" + exprs + "}");
    }

    private static Map<String, String> sorted(JsonNode map) {
        Map<String, String> out = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = map.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            out.put(e.getKey(), e.getValue().asText());
        }
        return out;
    }

    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
