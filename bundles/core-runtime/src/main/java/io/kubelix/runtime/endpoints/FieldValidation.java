package io.kubelix.runtime.endpoints;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.errors.StatusException;
import io.kubelix.runtime.codec.Codecs;
import io.kubelix.runtime.codec.MediaType;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Server-side field validation ({@code fieldValidation=Strict|Warn|Ignore}) of create, update and
 * patch bodies, for duplicate fields: Strict refuses them (400, kube's "strict decoding error"),
 * Warn (the default when the parameter is unset, as in kube-apiserver) keeps the last value and
 * sends a {@code Warning} header per duplicate, Ignore keeps the last value silently.
 *
 * <p>Unknown fields are not detected yet: that needs the resources' schemas.
 */
final class FieldValidation {
    private static final List<String> DIRECTIVES = List.of("", "Ignore", "Strict", "Warn");
    /** Only parses YAML for the duplicate scan; the YAML trees come from {@link Codecs}. */
    private static final YAMLFactory YAML = new YAMLFactory();

    enum Directive { IGNORE, WARN, STRICT }

    private FieldValidation() {
    }

    /** The directive of the request; an unknown value is 422 on {@code CreateOptions}, {@code UpdateOptions} or {@code PatchOptions}. */
    static Directive directive(RequestScope s) {
        String v = s.param("fieldValidation");
        return switch (v) {
            case "", "Warn" -> Directive.WARN;
            case "Ignore" -> Directive.IGNORE;
            case "Strict" -> Directive.STRICT;
            default -> throw StatusException.invalid(optionsKind(s.info.verb()), "meta.k8s.io", "",
                    List.of(FieldError.notSupported("fieldValidation", v, DIRECTIVES)));
        };
    }

    /** The create or update body as an object (see {@link RequestScope#decodeBody()}), duplicates handled per the directive. */
    static ObjectNode decodeObject(RequestScope s) throws IOException {
        Directive directive = directive(s);
        String ct = s.contentType();
        boolean json = ct.isEmpty() || ct.equals(MediaType.JSON);
        boolean yaml = !json && MediaType.parse(ct).isYaml();
        if (!json && !yaml) {
            return s.decodeBody();
        }
        byte[] body = s.body();
        List<String> duplicates = duplicates(body, yaml);
        if (duplicates.isEmpty()) {
            return Codecs.decodeObject(body, yaml);
        }
        if (directive == Directive.STRICT) {
            String apiVersion = s.groupVersion.version();
            String kind = s.storage.kind();
            throw StatusException.badRequest(kind + " in version \"" + apiVersion + "\" cannot be handled as a " + kind
                    + ": strict decoding error: " + String.join(", ", duplicates));
        }
        if (directive == Directive.WARN) {
            duplicates.forEach(s.ctx::addWarning);
        }
        if (yaml) {
            return Codecs.decodeObject(body, true);
        }
        // Not an object: let the codec word the error.
        return lastWins(body) instanceof ObjectNode o ? o : Codecs.decodeObject(body, false);
    }

    /** A JSON patch body, duplicates handled per the directive (a JSON patch's are reported as {@code json patch ...}). */
    static JsonNode decodePatch(RequestScope s, boolean jsonPatch) throws IOException {
        Directive directive = directive(s);
        byte[] body = s.body();
        List<String> duplicates = duplicates(body, false);
        if (duplicates.isEmpty()) {
            return Codecs.decode(body, false);
        }
        List<String> errs = duplicates.stream().map(d -> jsonPatch ? "json patch " + d : d).toList();
        if (directive == Directive.STRICT) {
            throw StatusException.badRequest("strict decoding error: " + String.join(", ", errs));
        }
        if (directive == Directive.WARN) {
            errs.forEach(s.ctx::addWarning);
        }
        return lastWins(body);
    }

    /**
     * The duplicate fields of a JSON or YAML document, in kube's words: {@code duplicate field "x"}
     * for JSON, {@code line N: key "x" already set in map} for YAML. A document that does not
     * parse has none here; decoding it reports the syntax error.
     */
    static List<String> duplicates(byte[] body, boolean yaml) {
        List<String> found = new ArrayList<>();
        JsonFactory factory = yaml ? YAML : Codecs.json().getFactory();
        try (JsonParser p = factory.createParser(body)) {
            p.disable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
            Deque<Set<String>> objects = new ArrayDeque<>();
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                switch (t) {
                    case START_OBJECT -> objects.push(new HashSet<>());
                    case END_OBJECT -> objects.pop();
                    case FIELD_NAME -> {
                        String name = p.currentName();
                        if (!objects.peek().add(name)) {
                            found.add(yaml ? "line " + p.currentLocation().getLineNr() + ": key \"" + name
                                    + "\" already set in map" : "duplicate field \"" + name + "\"");
                        }
                    }
                    default -> { }
                }
            }
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
        return found;
    }

    /** Decodes JSON keeping the last of duplicate fields, as Go's decoder does. */
    private static JsonNode lastWins(byte[] body) throws IOException {
        try (JsonParser p = Codecs.json().getFactory().createParser(body)) {
            p.disable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
            JsonNode node = Codecs.json().readTree(p);
            return node == null ? Codecs.decode(body, false) : node;
        } catch (com.fasterxml.jackson.core.JacksonException e) {
            // Same bytes, same syntax error: the codec words it as a 400.
            return Codecs.decode(body, false);
        }
    }

    private static String optionsKind(String verb) {
        return switch (verb) {
            case "create" -> "CreateOptions";
            case "patch" -> "PatchOptions";
            default -> "UpdateOptions";
        };
    }
}
