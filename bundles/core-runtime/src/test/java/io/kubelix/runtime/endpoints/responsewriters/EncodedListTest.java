package io.kubelix.runtime.endpoints.responsewriters;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.storage.ListResult;
import io.kubelix.runtime.codec.Codecs;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A list written from cached encodings is byte for byte the list written as a tree, its items
 * without kind and apiVersion as in kube's typed lists.
 */
class EncodedListTest {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    @Test
    void concatenatedItemsEqualTheTreeEncoding() {
        List<ObjectNode> objects = List.of(
                F.objectNode().put("apiVersion", "v1").put("kind", "ConfigMap").set("metadata", meta("a")),
                obj("b"),                                                       // stored untyped
                F.objectNode().put("kind", "ConfigMap").put("apiVersion", "v1").set("metadata", meta("c")),
                F.objectNode().put("apiVersion", "v1beta1").put("kind", "ConfigMap").set("metadata", meta("d")),
                F.objectNode().put("apiVersion", "v1").put("kind", "ConfigMapX").set("metadata", meta("e")));
        ObjectNode listMeta = F.objectNode().put("resourceVersion", "42").put("continue", "tok\"en")
                .put("remainingItemCount", 3);

        List<String> retyped = new ArrayList<>();
        byte[] fast = EncodedList.encode("ConfigMap", "v1", listMeta.deepCopy(), cached(objects), o -> {
            retyped.add(o.path("metadata").path("name").asText());
            return untyped(o);
        }).toByteArray();

        assertEquals(List.of("b", "d", "e"), retyped, "only items not typed as the list's are encoded again");
        ObjectNode tree = F.objectNode().put("kind", "ConfigMapList").put("apiVersion", "v1");
        tree.set("metadata", listMeta);
        objects.forEach(o -> tree.withArray("items").add(untyped(o.deepCopy())));
        assertEquals(new String(Codecs.toJson(tree), StandardCharsets.UTF_8), new String(fast, StandardCharsets.UTF_8));
        assertEquals(fast.length, EncodedList.encode("ConfigMap", "v1", listMeta.deepCopy(), cached(objects),
                EncodedListTest::untyped).length(), "the length announced before streaming");
    }

    @Test
    void anEmptyList() {
        byte[] fast = EncodedList.encode("ConfigMap", "v1", F.objectNode().put("resourceVersion", "7"),
                cached(List.of()), EncodedListTest::untyped).toByteArray();

        assertEquals("{\"kind\":\"ConfigMapList\",\"apiVersion\":\"v1\",\"metadata\":{\"resourceVersion\":\"7\"},\"items\":[]}",
                new String(fast, StandardCharsets.UTF_8));
    }

    private static ListResult cached(List<ObjectNode> objects) {
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
