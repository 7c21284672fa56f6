package io.kubelix.runtime.codec;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import io.kubelix.api.errors.StatusException;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The serializers of core-runtime: JSON and YAML, both over Jackson trees. This bundle's only
 * ObjectMappers (never shared with other bundles, so a plugin update leaks no classes).
 */
public final class Codecs {
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    // Strings are written plain (kind: ConfigMap) and quoted only where a reader would take them for
    // something else, as kube's YAML writer does: "true", "1", "null", and timestamps.
    private static final ObjectMapper YAML = new ObjectMapper(YAMLFactory.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
            .stringQuotingChecker(new YamlQuoting())
            .build())
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    /**
     * The deepest JSON a request may nest. Parsing is iterative, but copying, patching, comparing
     * and writing trees recurse: at 10,000 levels (kube's limit) they overflow a default thread
     * stack, so the limit is 1,000, far beyond any real object.
     */
    public static final int MAX_NESTING_DEPTH = 1_000;

    static {
        JSON.getFactory().setStreamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_NESTING_DEPTH).build());
        YAML.getFactory().setStreamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_NESTING_DEPTH).build());
    }

    private Codecs() {
    }

    public static ObjectMapper json() {
        return JSON;
    }

    /** Encodes a tree as compact JSON. */
    public static byte[] toJson(JsonNode node) {
        try {
            return JSON.writeValueAsBytes(node);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Encodes a tree as YAML, as kubectl prints it. */
    public static byte[] toYaml(JsonNode node) {
        try {
            return YAML.writeValueAsBytes(node);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Decodes a request body into an object.
     *
     * @throws StatusException 400 when the body is not a JSON (or YAML) object
     */
    public static ObjectNode decodeObject(byte[] body, boolean yaml) {
        JsonNode node = decode(body, yaml);
        if (!(node instanceof ObjectNode o)) {
            throw StatusException.badRequest("the body of the request must be an object, not " + kindOf(node));
        }
        return o;
    }

    /** Decodes any JSON (or YAML) value. @throws StatusException 400 when it does not parse. */
    public static JsonNode decode(byte[] body, boolean yaml) {
        if (body.length == 0) {
            throw StatusException.badRequest("the body of the request was empty");
        }
        try {
            JsonNode node = (yaml ? YAML : JSON).readTree(body);
            if (node == null || node.isMissingNode()) {
                throw StatusException.badRequest("the body of the request was empty");
            }
            return node;
        } catch (IOException e) {
            String detail = e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst().orElse("");
            throw StatusException.badRequest("the body of the request could not be decoded: " + detail);
        }
    }

    private static String kindOf(JsonNode node) {
        return node.isArray() ? "an array" : node.isNull() ? "null" : "a " + node.getNodeType().name().toLowerCase();
    }
}
