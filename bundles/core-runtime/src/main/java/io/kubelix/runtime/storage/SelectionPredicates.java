package io.kubelix.runtime.storage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.storage.SelectionPredicate;
import io.kubelix.api.validation.NameValidators;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * labelSelector and fieldSelector parameters as a SelectionPredicate (labels.Parse and
 * fields.ParseSelector). Labels: {@code k}, {@code !k}, {@code k=v}, {@code k==v}, {@code k!=v},
 * {@code k in (a,b)}, {@code k notin (a,b)}; fields: {@code metadata.name},
 * {@code metadata.namespace} and those the resource declares, with {@code =}, {@code ==},
 * {@code !=}. Anything else is 400.
 */
public final class SelectionPredicates {

    private SelectionPredicates() {
    }

    static SelectionPredicate of(String labelSelector, String fieldSelector) {
        return of(labelSelector, fieldSelector, Map.of());
    }

    /** @param fields the fields the resource lets a fieldSelector name, besides metadata.name and metadata.namespace */
    public static SelectionPredicate of(String labelSelector, String fieldSelector,
                                        Map<String, Function<ObjectNode, String>> fields) {
        List<Predicate<ObjectNode>> parts = new ArrayList<>();
        Map<String, String> required = new HashMap<>();
        for (String req : splitTopLevel(labelSelector)) {
            parts.add(labelRequirement(req.trim(), labelSelector));
        }
        for (String req : splitTopLevel(fieldSelector)) {
            parts.add(fieldRequirement(req.trim(), fields, required));
        }
        if (parts.isEmpty()) {
            return SelectionPredicate.EVERYTHING;
        }
        String text = "labels(" + labelSelector + ") fields(" + fieldSelector + ")";
        return new SelectionPredicate() {
            @Override
            public boolean matches(ObjectNode obj) {
                for (Predicate<ObjectNode> p : parts) {
                    if (!p.test(obj)) {
                        return false;
                    }
                }
                return true;
            }

            @Override
            public boolean matchesEverything() {
                return false;
            }

            @Override
            public String requiredFieldValue(String field) {
                return required.get(field);
            }

            @Override
            public String toString() {
                return text;
            }
        };
    }

    private static Predicate<ObjectNode> labelRequirement(String req, String whole) {
        if (req.isEmpty()) {
            throw invalidLabels(whole, "found '', expected: !, identifier, or 'end of string'");
        }
        if (req.startsWith("!")) {
            String key = checkKey(req.substring(1).trim(), whole);
            return o -> label(o, key) == null;
        }
        String[] words = req.split("\\s+", 2);
        if (words.length == 2 && (words[1].startsWith("in ") || words[1].startsWith("in(")
                || words[1].startsWith("notin ") || words[1].startsWith("notin("))) {
            String key = checkKey(words[0], whole);
            boolean in = words[1].startsWith("in");
            String rest = words[1].substring(in ? 2 : 5).trim();
            if (!rest.startsWith("(") || !rest.endsWith(")")) {
                throw invalidLabels(whole, "expected '(' and ')' around the values of " + key);
            }
            Set<String> values = new LinkedHashSet<>();
            for (String v : rest.substring(1, rest.length() - 1).split(",")) {
                values.add(checkValue(v.trim(), whole));
            }
            return in ? o -> values.contains(label(o, key)) : o -> !values.contains(label(o, key));
        }
        int ne = req.indexOf("!=");
        if (ne > 0) {
            String key = checkKey(req.substring(0, ne).trim(), whole);
            String value = checkValue(req.substring(ne + 2).trim(), whole);
            return o -> !value.equals(label(o, key));
        }
        int eq = req.indexOf('=');
        if (eq > 0) {
            String key = checkKey(req.substring(0, eq).trim(), whole);
            String v = req.substring(eq + 1);
            String value = checkValue((v.startsWith("=") ? v.substring(1) : v).trim(), whole);
            return o -> value.equals(label(o, key));
        }
        if (req.contains(" ") || req.contains("<") || req.contains(">") || req.contains("(")) {
            throw invalidLabels(whole, "unsupported requirement \"" + req + "\"");
        }
        String key = checkKey(req, whole);
        return o -> label(o, key) != null;
    }

    /** @param required collects the value of each field a {@code field=value} requirement names */
    private static Predicate<ObjectNode> fieldRequirement(String req, Map<String, Function<ObjectNode, String>> fields,
                                                          Map<String, String> required) {
        boolean negate;
        String field;
        String value;
        int ne = req.indexOf("!=");
        int eq = req.indexOf('=');
        if (ne > 0) {
            negate = true;
            field = req.substring(0, ne).trim();
            value = req.substring(ne + 2).trim();
        } else if (eq > 0) {
            negate = false;
            field = req.substring(0, eq).trim();
            String v = req.substring(eq + 1);
            value = (v.startsWith("=") ? v.substring(1) : v).trim();
        } else {
            throw StatusException.badRequest("invalid field selector: \"" + req + "\": invalid selector: '" + req
                    + "'; can't understand '" + req + "'");
        }
        Function<ObjectNode, String> read = switch (field) {
            case "metadata.name" -> o -> o.path("metadata").path("name").asText("");
            case "metadata.namespace" -> o -> o.path("metadata").path("namespace").asText("");
            default -> {
                Function<ObjectNode, String> declared = fields.get(field);
                if (declared == null) {
                    throw StatusException.badRequest("field label not supported: " + field);
                }
                yield o -> {
                    String v = declared.apply(o);
                    return v == null ? "" : v;
                };
            }
        };
        if (!negate) {
            required.put(field, value);
        }
        return o -> value.equals(read.apply(o)) != negate;
    }

    private static String label(ObjectNode o, String key) {
        JsonNode v = o.path("metadata").path("labels").get(key);
        return v == null || v.isNull() ? null : v.asText();
    }

    private static String checkKey(String key, String whole) {
        List<String> errs = NameValidators.isQualifiedName(key);
        if (!errs.isEmpty()) {
            throw invalidLabels(whole, "key: Invalid value: \"" + key + "\": " + String.join("; ", errs));
        }
        return key;
    }

    private static String checkValue(String value, String whole) {
        List<String> errs = NameValidators.isValidLabelValue(value);
        if (!errs.isEmpty()) {
            throw invalidLabels(whole, "values[0]: Invalid value: \"" + value + "\": " + String.join("; ", errs));
        }
        return value;
    }

    private static StatusException invalidLabels(String selector, String why) {
        return StatusException.badRequest("unable to parse requirement: " + why + " (labelSelector \"" + selector + "\")");
    }

    /** Splits on commas outside parentheses. */
    private static List<String> splitTopLevel(String s) {
        List<String> out = new ArrayList<>();
        if (s == null || s.isBlank()) {
            return out;
        }
        int depth = 0;
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                out.add(s.substring(start, i));
                start = i + 1;
            }
        }
        out.add(s.substring(start));
        return out;
    }
}
