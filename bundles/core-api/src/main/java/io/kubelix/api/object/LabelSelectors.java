package io.kubelix.api.object;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * A metav1.LabelSelector object ({@code matchLabels} and {@code matchExpressions}) as kube's
 * {@code LabelSelectorAsSelector} reads it: matched against labels, or written as the selector
 * string a Scale's {@code status.selector} and the printers' SELECTOR column show
 * ({@code app=web,tier in (a,b),!legacy}). A null or missing selector selects nothing, an empty
 * one everything.
 */
public final class LabelSelectors {

    private LabelSelectors() {
    }

    /** One requirement: a key, an operator and its values (sorted, as labels.Requirement keeps them). */
    private record Requirement(String key, String operator, TreeSet<String> values) {
        boolean matches(JsonNode labels) {
            JsonNode v = labels == null ? null : labels.get(key);
            boolean has = v != null && v.isTextual();
            return switch (operator) {
                case "In", "=" -> has && values.contains(v.asText());
                case "NotIn" -> !has || !values.contains(v.asText());
                case "Exists" -> has;
                case "DoesNotExist" -> !has;
                default -> false;
            };
        }

        @Override
        public String toString() {
            return switch (operator) {
                case "=" -> key + "=" + values.first();
                case "In" -> key + " in (" + String.join(",", values) + ")";
                case "NotIn" -> key + " notin (" + String.join(",", values) + ")";
                case "Exists" -> key;
                default -> "!" + key;
            };
        }
    }

    /** Whether the selector has neither matchLabels nor matchExpressions (and so selects everything). */
    public static boolean isEmpty(JsonNode selector) {
        return selector != null && selector.isObject() && selector.path("matchLabels").isEmpty()
                && selector.path("matchExpressions").isEmpty();
    }

    /**
     * Whether {@code labels} (a map of strings, or null) satisfies the selector.
     *
     * @throws IllegalArgumentException when the selector is malformed (see {@link #format})
     */
    public static boolean matches(JsonNode selector, JsonNode labels) {
        if (selector == null || selector.isNull() || selector.isMissingNode()) {
            return false;
        }
        return requirements(selector).stream().allMatch(r -> r.matches(labels));
    }

    /**
     * The selector string: requirements sorted by key, {@code key=value} for matchLabels,
     * {@code key in (a,b)}, {@code key notin (a,b)}, {@code key} and {@code !key} for the
     * expressions; empty for a null or empty selector.
     *
     * @throws IllegalArgumentException when an operator is unknown, In or NotIn has no values, or
     *                                  Exists or DoesNotExist has some
     */
    public static String format(JsonNode selector) {
        if (selector == null || selector.isNull() || selector.isMissingNode()) {
            return "";
        }
        List<String> parts = new ArrayList<>();
        requirements(selector).forEach(r -> parts.add(r.toString()));
        return String.join(",", parts);
    }

    private static List<Requirement> requirements(JsonNode selector) {
        if (!selector.isObject()) {
            throw new IllegalArgumentException("a label selector must be an object");
        }
        List<Requirement> reqs = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = selector.path("matchLabels").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            TreeSet<String> value = new TreeSet<>();
            value.add(e.getValue().asText());
            reqs.add(new Requirement(e.getKey(), "=", value));
        }
        for (JsonNode expr : selector.path("matchExpressions")) {
            String op = expr.path("operator").asText("");
            TreeSet<String> values = new TreeSet<>();
            expr.path("values").forEach(v -> values.add(v.asText()));
            switch (op) {
                case "In", "NotIn" -> {
                    if (values.isEmpty()) {
                        throw new IllegalArgumentException("for 'in', 'notin' operators, values set can't be empty");
                    }
                }
                case "Exists", "DoesNotExist" -> {
                    if (!values.isEmpty()) {
                        throw new IllegalArgumentException("values set must be empty for exists and does not exist");
                    }
                }
                default -> throw new IllegalArgumentException("\"" + op + "\" is not a valid label selector operator");
            }
            reqs.add(new Requirement(expr.path("key").asText(""), op, values));
        }
        reqs.sort(Comparator.comparing(Requirement::key));
        return reqs;
    }
}
