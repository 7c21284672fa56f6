package io.kubelix.apiextensions.customresource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;

import java.util.ArrayList;
import java.util.List;

/**
 * The JSONPath of printer columns and selectable fields in the forms CRDs use: fields in dot
 * notation ({@code .spec.replicas}), array indexes ({@code .status.conditions[0].type}), and quoted
 * keys ({@code .metadata.labels['app.kubernetes.io/name']}); a missing step reads as missing.
 */
final class JsonPaths {

    private JsonPaths() {
    }

    /** The steps of a path: field names, and integers for indexes; null when the path is not of these forms. */
    static List<Object> parse(String path) {
        String p = path.trim();
        if (p.startsWith("{") && p.endsWith("}")) {
            p = p.substring(1, p.length() - 1);
        }
        if (!p.startsWith(".")) {
            return null;
        }
        List<Object> steps = new ArrayList<>();
        int i = 0;
        while (i < p.length()) {
            char c = p.charAt(i);
            if (c == '.') {
                int end = i + 1;
                while (end < p.length() && p.charAt(end) != '.' && p.charAt(end) != '[') {
                    end++;
                }
                if (end > i + 1) {
                    steps.add(p.substring(i + 1, end));
                }
                i = end;
            } else if (c == '[') {
                int close = p.indexOf(']', i);
                if (close < 0) {
                    return null;
                }
                String inner = p.substring(i + 1, close).trim();
                if (inner.length() >= 2 && (inner.startsWith("'") && inner.endsWith("'")
                        || inner.startsWith("\"") && inner.endsWith("\""))) {
                    steps.add(inner.substring(1, inner.length() - 1));
                } else {
                    try {
                        steps.add(Integer.parseInt(inner));
                    } catch (NumberFormatException e) {
                        return null;
                    }
                }
                i = close + 1;
            } else {
                return null;
            }
        }
        return steps;
    }

    /** The value at {@code steps} in {@code node}, or a missing node. */
    static JsonNode at(JsonNode node, List<Object> steps) {
        JsonNode n = node;
        for (Object step : steps) {
            if (step instanceof Integer index) {
                n = n.isArray() ? n.path(index < 0 ? n.size() + index : index) : MissingNode.getInstance();
            } else {
                n = n.path((String) step);
            }
            if (n.isMissingNode()) {
                return n;
            }
        }
        return n;
    }
}
