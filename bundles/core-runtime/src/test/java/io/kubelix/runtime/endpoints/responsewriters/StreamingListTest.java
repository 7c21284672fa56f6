package io.kubelix.runtime.endpoints.responsewriters;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.storage.ListResult;
import io.kubelix.runtime.codec.Codecs;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A streamed list is byte for byte the list built as a tree and encoded whole, its items without
 * kind and apiVersion as in kube's typed lists, whether an item comes with its encoding or not.
 */
class StreamingListTest {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    @Test
    void itemsWithEncodingsEqualTheTreeEncoding() {
        List<ObjectNode> objects = List.of(
                F.objectNode().put("apiVersion", "v1").put("kind", "ConfigMap").set("metadata", meta("a")),
                obj("b"),                                                       // stored untyped
                F.objectNode().put("kind", "ConfigMap").put("apiVersion", "v1").set("metadata", meta("c")),
                F.objectNode().put("apiVersion", "v1beta1").put("kind", "ConfigMap").set("metadata", meta("d")),
                F.objectNode().put("apiVersion", "v1").put("kind", "ConfigMapX").set("metadata", meta("e")),
                F.objectNode().put("apiVersion", "v1").put("kind", "ConfigMap"));
        ObjectNode listMeta = F.objectNode().put("resourceVersion", "42").put("continue", "tok\"en")
                .put("remainingItemCount", 3);

        byte[] streamed = StreamingList.of("ConfigMap", "v1", listMeta.deepCopy(), withEncodings(objects)).toByteArray();

        assertEquals(tree(listMeta, objects), new String(streamed, StandardCharsets.UTF_8));
    }

    @Test
    void itemsOfEveryJsonTypeEqualTheTreeEncoding() throws Exception {
        List<ObjectNode> objects = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            // parsed as a stored object is, so numbers are the node types storage hands out
            ObjectNode o = (ObjectNode) Codecs.json().readTree("""
                    {"metadata":{"name":"cm-%d","labels":{}},"kind":"ConfigMap","apiVersion":"v1",
                     "data":{"s":"é \\" \\\\ \\n \\t \\u0001 \\u2028 😀 </script>","empty":""},
                     "n":{"int":%d,"long":9007199254740993,"big":123456789012345678901234567890,
                          "neg":-1,"zero":0,"float":1.5e-7,"decimal":0.10,"exp":1E+300},
                     "b":[true,false,null],"nested":[[],[{}],{"a":[1,{"b":null}]}],"pad":"%s"}
                    """.formatted(i, i, "x".repeat(1000)));
            o.put("bigInteger", new BigInteger("-98765432109876543210")).put("bigDecimal", new BigDecimal("1.000"))
                    .put("double", 0.1d).put("floatValue", 2.5f).put("longValue", Long.MIN_VALUE);
            o.putNull("nothing");
            objects.add(o);
        }
        ObjectNode listMeta = F.objectNode().put("resourceVersion", "7");

        byte[] fromStorage = StreamingList.of("ConfigMap", "v1", listMeta.deepCopy(),
                new ListResult(objects, 7, null, null)).toByteArray();
        byte[] fromEncodings = StreamingList.of("ConfigMap", "v1", listMeta.deepCopy(), withEncodings(objects))
                .toByteArray();

        assertTrue(fromStorage.length > 3 * StreamingList.CHUNK, "the list spans several chunks: " + fromStorage.length);
        String expected = tree(listMeta, objects);
        assertEquals(expected, new String(fromStorage, StandardCharsets.UTF_8));
        assertEquals(expected, new String(fromEncodings, StandardCharsets.UTF_8));
        assertEquals("v1", objects.get(0).path("apiVersion").asText(), "the items are not changed");
    }

    @Test
    void anEmptyList() {
        byte[] streamed = StreamingList.of("ConfigMap", "v1", F.objectNode().put("resourceVersion", "7"),
                withEncodings(List.of())).toByteArray();

        assertEquals("{\"kind\":\"ConfigMapList\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"7\"},\"items\":[]}",
                new String(streamed, StandardCharsets.UTF_8));
    }

    /** The list as a tree, its items copied and untyped, encoded whole: what a list was before streaming. */
    private static String tree(ObjectNode listMeta, List<ObjectNode> objects) {
        ObjectNode tree = F.objectNode().put("kind", "ConfigMapList").put("apiVersion", "v1");
        tree.set("metadata", listMeta.deepCopy());
        objects.forEach(o -> tree.withArray("items").add(untyped(o.deepCopy())));
        return new String(Codecs.toJson(tree), StandardCharsets.UTF_8);
    }

    private static ListResult withEncodings(List<ObjectNode> objects) {
        List<Supplier<byte[]>> json = new ArrayList<>();
        objects.forEach(o -> {
            byte[] b = Codecs.toJson(o);
            json.add(() -> b);
        });
        return new ListResult(objects.stream().map(ObjectNode::deepCopy).toList(), 42, null, null, json);
    }

    private static ObjectNode untyped(ObjectNode o) {
        o.remove("apiVersion");
        o.remove("kind");
        return o;
    }

    private static ObjectNode obj(String name) {
        ObjectNode o = F.objectNode();
        o.set("metadata", meta(name));
        return o;
    }

    private static ObjectNode meta(String name) {
        return F.objectNode().put("name", name);
    }
}
