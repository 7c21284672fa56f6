package io.kubelix.support.cel;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The static cost of rules against kube's own figures (apiextensions' TestCostEstimation): each
 * schema once without limits, where sizes come from the 3 MiB request, and once with the limit set.
 */
class CostEstimateTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** kube's test expects these to go over the whole CRD's limit. */
    private static final long OVER = 100_000_000L;

    private record Case(String name, Function<Long, String> schema, long calcCost, long setMax, long setCost) {
    }

    /** A rule inside the single-quoted JSON of these tests: its own quotes are restored when it is read. */
    private static String q(String rule) {
        return rule.replace('\'', '\u0001');
    }

    private static String limit(String key, Long max) {
        return max == null ? "" : ",'" + key + "':" + max;
    }

    private static String typed(String type) {
        return switch (type) {
            case "int-or-string" -> "{'x-kubernetes-int-or-string':true}";
            case "duration", "date", "date-time" -> "{'type':'string','format':'" + type + "'}";
            default -> "{'type':'" + type + "'}";
        };
    }

    private static Function<Long, String> array(String type, String rule) {
        return max -> "{'type':'array','items':" + typed(type) + limit("maxItems", max) + ",'x-kubernetes-validations':[{'rule':\"" + q(rule) + "\"}]}";
    }

    private static Function<Long, String> arrayOfArrays(String type, String rule) {
        return max -> "{'type':'array','items':{'type':'array','items':" + typed(type) + "}" + limit("maxItems", max)
                + ",'x-kubernetes-validations':[{'rule':\"" + q(rule) + "\"}]}";
    }

    private static final String OBJECT = "{'type':'object','required':['required'],'properties':{'required':{'type':'string'},'optional':{'type':'string'}}}";

    private static Function<Long, String> objectArray(String rule) {
        return max -> "{'type':'array','items':" + OBJECT + limit("maxItems", max) + ",'x-kubernetes-validations':[{'rule':\"" + q(rule) + "\"}]}";
    }

    private static Function<Long, String> mapArray(String type, String rule) {
        return max -> "{'type':'array','items':{'type':'object','additionalProperties':" + typed(type) + "}" + limit("maxItems", max)
                + ",'x-kubernetes-validations':[{'rule':\"" + q(rule) + "\"}]}";
    }

    private static Function<Long, String> map(String type, String rule) {
        return mapOf(typed(type), rule);
    }

    private static Function<Long, String> mapOf(String item, String rule) {
        return max -> "{'type':'object','additionalProperties':" + item + limit("maxProperties", max)
                + ",'x-kubernetes-validations':[{'rule':\"" + q(rule) + "\"}]}";
    }

    private static Function<Long, String> string(String rule) {
        return max -> "{'type':'string'" + limit("maxLength", max) + ",'x-kubernetes-validations':[{'rule':\"" + q(rule) + "\"}]}";
    }

    private static Function<Long, String> bytes(String rule) {
        return max -> "{'type':'string','format':'byte'" + limit("maxLength", max) + ",'x-kubernetes-validations':[{'rule':\"" + q(rule) + "\"}]}";
    }

    private static Function<Long, String> nestedSpec(String rule) {
        return max -> "{'type':'object','additionalProperties':{'type':'string'" + limit("maxLength", max) + "}"
                + limit("maxProperties", max) + ",'x-kubernetes-validations':[{'rule':\"" + q(rule) + "\"}]}";
    }

    private static Function<Long, String> nestedRoot(String rule, boolean allLimited) {
        return max -> "{'type':'array','items':{'type':'object','additionalProperties':{'type':'object','required':['required'],"
                + "'properties':{'required':{'type':'string'},'optional':{'type':'string'}}" + (allLimited ? limit("maxProperties", max) : "") + "}"
                + limit("maxProperties", max) + "}" + (allLimited ? limit("maxItems", max) : "")
                + ",'x-kubernetes-validations':[{'rule':\"" + q(rule) + "\"}]}";
    }

    private static Function<Long, String> stringList(String rule) {
        return max -> "{'type':'array','items':{'type':'string'" + limit("maxLength", max) + "}" + limit("maxItems", max)
                + ",'x-kubernetes-validations':[{'rule':\"" + q(rule) + "\"}]}";
    }

    private static List<Case> cases() {
        List<Case> c = new ArrayList<>();
        c.add(new Case("number array with all", array("number", "self.all(x, true)"), 4718591, 10, 32));
        c.add(new Case("string array with all", array("string", "self.all(x, true)"), 3145727, 20, 62));
        c.add(new Case("boolean array with all", array("boolean", "self.all(x, true)"), 1887437, 5, 17));
        c.add(new Case("array of number arrays with all", arrayOfArrays("number", "self.all(x, true)"), 3145727, 100, 302));
        c.add(new Case("array of objects with all", objectArray("self.all(x, true)"), 555128, 50, 152));
        c.add(new Case("map of numbers with all", map("number", "self.all(x, true)"), 1348169, 10, 32));
        c.add(new Case("map of strings with all", map("string", "self.all(x, true)"), 1179647, 3, 11));
        c.add(new Case("map of booleans with all", map("boolean", "self.all(x, true)"), 943718, 100, 302));
        c.add(new Case("string with contains", string("self.contains('test')"), 314574, 10, 5));
        c.add(new Case("string with startsWith", string("self.startsWith('test')"), 2, 15, 2));
        c.add(new Case("string with endsWith", string("self.endsWith('test')"), 2, 30, 2));
        c.add(new Case("concat string", string("size(self + 'hello') > size('hello')"), 314578, 4, 7));
        c.add(new Case("index of array with numbers", array("number", "self[1] == 0.0"), 2, 5000, 2));
        c.add(new Case("index of array with strings", array("string", "self[1] == self[1]"), 314577, 8, 314577));
        c.add(new Case("O(n^2) loop with numbers", array("number", "self.all(x, self.all(y, true))"), -1, 10, 352));
        c.add(new Case("O(n^3) loop with numbers", array("number", "self.all(x, self.all(y, self.all(z, true)))"), -1, 10, 3552));
        c.add(new Case("regex matches simple", string("self.matches('x')"), 314574, 50, 22));
        c.add(new Case("regex matches empty string", string("''.matches('(((((((((())))))))))[0-9]')"), 7, 10, 7));
        c.add(new Case("regex matches empty regex", string("self.matches('')"), 1, 100, 1));
        c.add(new Case("map of strings with value length", nestedSpec("self.all(x, x.contains(self[x]))"), 2752507, 10, 72));
        c.add(new Case("set array maxLength to zero", array("number", "self[3] == 0.0"), 2, 0, 2));
        c.add(new Case("set map maxLength to zero", map("number", "self['x'] == 0.0"), 2, 0, 2));
        c.add(new Case("set string maxLength to zero", string("self == 'x'"), 2, 0, 1));
        c.add(new Case("set bytes maxLength to zero", bytes("self == b'x'"), 2, 0, 1));
        c.add(new Case("set maxLength greater than estimated maxLength", array("number", "self.all(x, x == 0.0)"), 6291454, 3 * 1024 * 2048, 25165826));
        c.add(new Case("nested types with root rule with all supporting maxLength", nestedRoot("self.all(x, x['y'].required == 'z')", true), 7340027, 10, 72));
        c.add(new Case("nested types with root rule with one supporting maxLength", nestedRoot("self.all(x, x['y'].required == 'z')", false), 7340027, 10, 7340027));
        c.add(new Case("int-or-string array with all", array("int-or-string", "self.all(x, true)"), 4718591, 10, 32));
        c.add(new Case("index of array with int-or-strings", array("int-or-string", "self[0] == 5"), 3, 10, 3));
        c.add(new Case("index of array with booleans", array("boolean", "self[0] == false"), 2, 25, 2));
        c.add(new Case("index of array of array of numbers", arrayOfArrays("number", "self[0][0] == -1.0"), 3, 51, 3));
        c.add(new Case("array of number maps with all", mapArray("number", "self.all(x, x.y == 25.2)"), 6291452, 12, 74));
        c.add(new Case("index of array of number maps", mapArray("number", "self[0].x > 2.0"), 4, 3000, 4));
        c.add(new Case("duration array with all", array("duration", "self.all(x, true)"), 2359295, 5, 17));
        c.add(new Case("date array with all", array("date", "self.all(x, true)"), 725936, 15, 47));
        c.add(new Case("date-time array with all", array("date-time", "self.all(x, true)"), 428963, 25, 77));
        c.add(new Case("map of int-or-strings with all", map("int-or-string", "self.all(x, true)"), 1348169, 15, 47));
        c.add(new Case("map of objects with all", mapOf(OBJECT, "self.all(x, true)"), 428963, 20, 62));
        c.add(new Case("map of number maps with all", mapOf("{'type':'object','additionalProperties':{'type':'number'}}", "self.all(x, true)"), 1179647, 10, 32));
        c.add(new Case("map of number arrays with all", mapOf("{'type':'array','items':{'type':'number'}}", "self.all(x, true)"), 1179647, 25, 77));
        c.add(new Case("map of durations with all", map("duration", "self.all(x, true)"), 1048577, 5, 17));
        c.add(new Case("map of dates with all", map("date", "self.all(x, true)"), 524288, 10, 32));
        c.add(new Case("map of date-times with all", map("date-time", "self.all(x, true)"), 349526, 25, 77));
        c.add(new Case("extended library regex find", string("self.find('[0-9]+') == ''"), 629147, 10, 11));
        c.add(new Case("extended library join", stringList("self.join(' ') == 'aa bb'"), 329853068905L, 10, 43));
        c.add(new Case("extended library isSorted", stringList("self.isSorted() == true"), 329854432052L, 10, 52));
        c.add(new Case("extended library replace", max -> "{'type':'object','properties':{'str':{'type':'string'" + limit("maxLength", max)
                + "},'before':{'type':'string','maxLength':2},'after':{'type':'string','maxLength':4}},"
                + "'x-kubernetes-validations':[{'rule':\"" + q("self.str.replace(self.before, self.after) == 'does not matter'") + "\"}]}", 629154, 4, 12));
        c.add(new Case("extended library split", max -> "{'type':'object','properties':{'str':{'type':'string'" + limit("maxLength", max)
                + "},'separator':{'type':'string'" + limit("maxLength", max) + "}},"
                + "'x-kubernetes-validations':[{'rule':\"self.str.split(self.separator) == []\"}]}", 629160, 10, 22));
        c.add(new Case("extended library lowerAscii", string("self.lowerAscii() == 'lower!'"), 314575, 10, 6));
        c.add(new Case("check cost of size call", map("integer", "oldSelf.size() == self.size()"), 5, 10, 5));
        c.add(new Case("check cost of timestamp comparison", map("date-time", "self['a'] == self['b']"), 8, 7, 8));
        c.add(new Case("check cost of duration comparison", map("duration", "self['c'] == self['d']"), 8, 42, 8));
        c.add(new Case("enums with maxLength equals to the longest possible value",
                max -> "{'type':'string','enum':['A','B','C','LongValue']" + limit("maxLength", max)
                        + ",'x-kubernetes-validations':[{'rule':\"" + q("self.contains('A')") + "\"}]}", 2, 1000, 401));
        return c;
    }

    private static long cost(String schemaJson) throws Exception {
        JsonNode schema = JSON.readTree(schemaJson.replace('\'', '"').replace('\u0001', '\''));
        CelEnvironment env = CelEnvironment.builder().variable("self", schema, false).variable("oldSelf", schema, false).build();
        CelExpression rule = env.compile(schema.path("x-kubernetes-validations").get(0).path("rule").asText());
        return rule.estimateCost(new SchemaSizes(schema, false)).max();
    }

    @Test
    void costsAreKubes() throws Exception {
        List<String> wrong = new ArrayList<>();
        for (Case c : cases()) {
            long calc = cost(c.schema().apply(null));
            if (c.calcCost() < 0 ? calc < OVER : calc != c.calcCost()) {
                wrong.add(c.name() + " without limits: " + calc + " (kube " + (c.calcCost() < 0 ? "> " + OVER : c.calcCost()) + ")");
            }
            long set = cost(c.schema().apply(c.setMax()));
            if (set != c.setCost()) {
                wrong.add(c.name() + " with " + c.setMax() + ": " + set + " (kube " + c.setCost() + ")");
            }
        }
        assertTrue(wrong.isEmpty(), String.join("\n", wrong));
    }

    @Test
    void aResourceRootHasUnboundedTypeMeta() throws Exception {
        JsonNode schema = JSON.readTree("{\"type\":\"object\",\"properties\":{\"spec\":{\"type\":\"object\"}}}");
        CelEnvironment env = CelEnvironment.builder().variable("self", schema, true).build();
        // the name is unbounded; comparing it is bounded by the literal's one character
        assertEquals(4, env.compile("self.metadata.name == 'a'").estimateCost(new SchemaSizes(schema, true)).max());
        assertEquals(314576, env.compile("self.metadata.name.contains('a')").estimateCost(new SchemaSizes(schema, true)).max());
        assertEquals(SchemaSizes.MAX_REQUEST_SIZE_BYTES / 3, SchemaSizes.maxCardinality(schema, false));
    }
}
