package io.kubelix.support.cel;

import java.util.Optional;
import java.util.Set;

/**
 * How a schema's property names become CEL field names, as kube escapes them
 * (apiserver/pkg/cel/escaping.go): a CEL reserved word {@code w} is {@code __w__}; in other names
 * made of letters, digits, {@code _}, {@code .}, {@code -} and {@code /}, {@code __} becomes
 * {@code __underscores__}, {@code .} {@code __dot__}, {@code -} {@code __dash__} and {@code /}
 * {@code __slash__}. A name that is empty, starts with a digit or has any other character has no
 * CEL name: rules cannot reach that property.
 */
public final class CelNames {
    static final Set<String> RESERVED = Set.of("true", "false", "null", "in", "as", "break", "const", "continue",
            "else", "for", "function", "if", "import", "let", "loop", "package", "namespace", "return", "var", "void",
            "while");

    private CelNames() {
    }

    /** The CEL field name of a property, or empty when it has none. */
    public static Optional<String> escape(String property) {
        if (property.isEmpty() || property.charAt(0) >= '0' && property.charAt(0) <= '9') {
            return Optional.empty();
        }
        if (RESERVED.contains(property)) {
            return Optional.of("__" + property + "__");
        }
        StringBuilder out = null;
        for (int i = 0; i < property.length(); i++) {
            char c = property.charAt(i);
            String replacement;
            int consumed = 1;
            if (c == '_' && i + 1 < property.length() && property.charAt(i + 1) == '_') {
                replacement = "__underscores__";
                consumed = 2;
            } else if (c == '.') {
                replacement = "__dot__";
            } else if (c == '-') {
                replacement = "__dash__";
            } else if (c == '/') {
                replacement = "__slash__";
            } else if (c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
                replacement = null;
            } else {
                return Optional.empty();
            }
            if (replacement != null && out == null) {
                out = new StringBuilder(property.length() + 16).append(property, 0, i);
            }
            if (out != null) {
                if (replacement != null) {
                    out.append(replacement);
                } else {
                    out.append(c);
                }
            }
            i += consumed - 1;
        }
        return Optional.of(out == null ? property : out.toString());
    }
}
