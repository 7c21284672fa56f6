package io.kubelix.runtime.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.composer.Composer;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeId;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.StreamReader;
import org.yaml.snakeyaml.reader.UnicodeReader;
import org.yaml.snakeyaml.resolver.Resolver;

import java.io.ByteArrayInputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * YAML to a JSON tree as kube reads YAML (sigs.k8s.io/yaml over go-yaml v2, YAML 1.1): aliases are
 * resolved to their anchor's value, {@code <<} merge keys merge maps, plain scalars are read as
 * go-yaml resolves them ({@code yes}, {@code on}, {@code y} are booleans; {@code 0x1F}, {@code 017}
 * and {@code 1_000} integers; timestamps stay strings), and map keys become strings as
 * sigs.k8s.io/yaml writes them ({@code true: x} is {@code "true": x}). The expansion is bounded: a
 * document whose aliases expand it beyond {@code maxExpanded} (a "billion laughs") is refused, not
 * expanded.
 */
final class YamlDecoder {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    /** The tag this decoder gives an untagged plain scalar, which it resolves itself. */
    private static final Tag PLAIN = new Tag("tag:kubelix.io,2026:plain");
    private static final Map<String, JsonNode> RESOLVED = resolved();
    /** go-yaml's yamlStyleFloat. */
    private static final Pattern FLOAT = Pattern.compile("[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?");
    private static final String NUMBER_START = "+-.0123456789";

    private final int maxExpanded;
    private long expanded;

    private YamlDecoder(int maxExpanded) {
        this.maxExpanded = maxExpanded;
    }

    /**
     * The first document of {@code yaml} as a JSON tree, or null when there is none.
     *
     * @throws StatusException 400 when it does not parse, expands beyond {@code maxExpanded}
     *                         (scalars' characters and nodes counted), nests deeper than
     *                         {@code maxDepth}, or holds what JSON cannot (a NaN, a map key that is null or not a scalar)
     */
    static JsonNode decode(byte[] yaml, int maxExpanded, int maxDepth) {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(true);
        options.setAllowRecursiveKeys(false);
        options.setNestingDepthLimit(maxDepth);
        options.setCodePointLimit(Math.max(maxExpanded, yaml.length) + 1);
        // Aliases of maps and lists are bounded by the expansion budget below, not by their number.
        options.setMaxAliasesForCollections(Integer.MAX_VALUE);
        Node root;
        try {
            Composer composer = new Composer(new ParserImpl(new StreamReader(new UnicodeReader(
                    new ByteArrayInputStream(yaml))), options), new PlainScalars(), options);
            root = composer.checkNode() ? composer.getNode() : null;
        } catch (YAMLException e) {
            String message = e.getMessage() == null ? e.toString() : e.getMessage();
            throw invalid(message.replaceAll("\\s*\\n\\s*", " ").trim());
        }
        return root == null ? null : new YamlDecoder(maxExpanded).convert(root, 0, maxDepth);
    }

    private JsonNode convert(Node node, int depth, int maxDepth) {
        if (depth > maxDepth) {
            throw invalid("exceeded max depth of " + maxDepth);
        }
        spend(1);
        if (node instanceof ScalarNode s) {
            spend(s.getValue().length());
            return scalar(s);
        }
        if (node instanceof SequenceNode seq) {
            ArrayNode a = F.arrayNode();
            for (Node item : seq.getValue()) {
                a.add(convert(item, depth + 1, maxDepth));
            }
            return a;
        }
        MappingNode map = (MappingNode) node;
        ObjectNode o = F.objectNode();
        for (NodeTuple t : map.getValue()) {
            Node key = t.getKeyNode();
            if (isMerge(key)) {
                merge(o, t.getValueNode(), depth, maxDepth);
                continue;
            }
            o.set(key(key), convert(t.getValueNode(), depth + 1, maxDepth));
        }
        return o;
    }

    /** go-yaml's merge: a map's entries, or each map's of a list, the earlier ones taking precedence. */
    private void merge(ObjectNode into, Node value, int depth, int maxDepth) {
        if (value instanceof MappingNode) {
            into.setAll((ObjectNode) convert(value, depth + 1, maxDepth));
            return;
        }
        if (value instanceof SequenceNode seq) {
            List<Node> maps = seq.getValue();
            for (int i = maps.size() - 1; i >= 0; i--) {
                if (!(maps.get(i) instanceof MappingNode)) {
                    throw invalid("map merge requires map or sequence of maps as the value");
                }
                into.setAll((ObjectNode) convert(maps.get(i), depth + 1, maxDepth));
            }
            return;
        }
        throw invalid("map merge requires map or sequence of maps as the value");
    }

    private void spend(long n) {
        expanded += n;
        if (expanded > maxExpanded) {
            throw invalid("yaml: document contains excessive aliasing");
        }
    }

    private static boolean isMerge(Node key) {
        return key instanceof ScalarNode s && s.getValue().equals("<<")
                && (s.getTag().equals(PLAIN) || s.getTag().equals(Tag.MERGE));
    }

    /** A map key as sigs.k8s.io/yaml writes it into JSON: strings, numbers and booleans as text. */
    private String key(Node key) {
        if (!(key instanceof ScalarNode s)) {
            throw invalid("unsupported map key of type " + key.getNodeId() + " at line " + (key.getStartMark().getLine() + 1));
        }
        spend(s.getValue().length());
        JsonNode k = scalar(s);
        if (k.isNull()) {
            throw invalid("unsupported map key: null, at line " + (key.getStartMark().getLine() + 1));
        }
        return k.isTextual() ? k.textValue() : k.isBigDecimal() ? k.decimalValue().toString() : k.asText();
    }

    private static JsonNode scalar(ScalarNode s) {
        String v = s.getValue();
        Tag tag = s.getTag();
        if (tag.equals(PLAIN)) {
            return plain(v);
        }
        if (tag.equals(Tag.INT) || tag.equals(Tag.FLOAT) || tag.equals(Tag.BOOL) || tag.equals(Tag.NULL)) {
            JsonNode resolved = plain(v);
            boolean fits = tag.equals(Tag.INT) ? resolved.isIntegralNumber()
                    : tag.equals(Tag.FLOAT) ? resolved.isNumber()
                    : tag.equals(Tag.BOOL) ? resolved.isBoolean() : resolved.isNull();
            if (!fits) {
                throw invalid("cannot decode " + v + " as a " + tag.getValue());
            }
            return resolved;
        }
        // !!str, quoted and block scalars, timestamps and tags go-yaml does not know are strings.
        return F.textNode(v);
    }

    /** go-yaml v2's resolve of a plain scalar. */
    private static JsonNode plain(String v) {
        JsonNode known = RESOLVED.get(v);
        if (known != null) {
            if (known.isTextual()) {
                throw invalid("json: unsupported value: " + known.textValue());
            }
            return known;
        }
        if (v.isEmpty() || NUMBER_START.indexOf(v.charAt(0)) < 0) {
            return F.textNode(v);
        }
        if (v.charAt(0) == '.') {
            return FLOAT.matcher(v).matches() ? F.numberNode(new BigDecimal(v)) : F.textNode(v);
        }
        String p = v.replace("_", "");
        BigInteger integer = goParseInt(p);
        if (integer != null && integer.bitLength() <= 64) {
            // int64, or uint64 beyond it
            if (integer.signum() >= 0 || integer.bitLength() < 64 || integer.equals(BigInteger.ONE.shiftLeft(63).negate())) {
                return integer.bitLength() < 32 ? F.numberNode(integer.intValue())
                        : integer.bitLength() < 64 ? F.numberNode(integer.longValue()) : F.numberNode(integer);
            }
        }
        if (FLOAT.matcher(p).matches() && !Double.isInfinite(Double.parseDouble(p))) {
            return F.numberNode(new BigDecimal(p));
        }
        return F.textNode(v);
    }

    /** Go's strconv.ParseInt(s, 0, _) without the range check: sign, then 0x, 0o, 0b, a leading 0 (octal) or decimal. */
    private static BigInteger goParseInt(String s) {
        int i = 0;
        boolean negative = false;
        if (!s.isEmpty() && (s.charAt(0) == '+' || s.charAt(0) == '-')) {
            negative = s.charAt(0) == '-';
            i = 1;
        }
        String digits = s.substring(i);
        int radix = 10;
        if (digits.length() > 1 && digits.charAt(0) == '0') {
            char c = Character.toLowerCase(digits.charAt(1));
            radix = c == 'x' ? 16 : c == 'b' ? 2 : 8;
            digits = c == 'x' || c == 'b' || c == 'o' ? digits.substring(2) : digits.substring(1);
        }
        if (digits.isEmpty()) {
            return null;
        }
        for (int j = 0; j < digits.length(); j++) {
            if (Character.digit(digits.charAt(j), radix) < 0 || digits.charAt(j) > 'z') {
                return null;
            }
        }
        BigInteger n = new BigInteger(digits, radix);
        return negative ? n.negate() : n;
    }

    private static Map<String, JsonNode> resolved() {
        Map<String, JsonNode> m = new java.util.HashMap<>();
        for (String t : List.of("y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON")) {
            m.put(t, F.booleanNode(true));
        }
        for (String f : List.of("n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF")) {
            m.put(f, F.booleanNode(false));
        }
        for (String n : List.of("", "~", "null", "Null", "NULL")) {
            m.put(n, F.nullNode());
        }
        // Floats JSON cannot hold, named as Go's encoder names them when it refuses them.
        for (String nan : List.of(".nan", ".NaN", ".NAN")) {
            m.put(nan, F.textNode("NaN"));
        }
        for (String inf : List.of(".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF")) {
            m.put(inf, F.textNode("+Inf"));
        }
        for (String inf : List.of("-.inf", "-.Inf", "-.INF")) {
            m.put(inf, F.textNode("-Inf"));
        }
        return Map.copyOf(m);
    }

    private static StatusException invalid(String detail) {
        return StatusException.badRequest("the body of the request could not be decoded: " + detail);
    }

    /** Leaves plain scalars untagged ({@link #PLAIN}) for {@link #plain} to resolve. */
    private static final class PlainScalars extends Resolver {
        @Override
        protected void addImplicitResolvers() {
        }

        @Override
        public Tag resolve(NodeId kind, String value, boolean implicit) {
            return kind == NodeId.scalar && implicit ? PLAIN : super.resolve(kind, value, implicit);
        }
    }
}
