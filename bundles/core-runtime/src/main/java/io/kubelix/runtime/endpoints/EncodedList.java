package io.kubelix.runtime.endpoints;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.storage.ListResult;
import io.kubelix.runtime.codec.Codecs;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A list's JSON body written from its items' shared encodings (a list served from the watch cache),
 * without decoding or copying them: the envelope ({@code kind}, {@code apiVersion}, {@code metadata})
 * and the items' bytes, concatenated. The result is byte for byte the encoding of the list built as
 * a tree. An item's bytes are used as they are only when they already begin with the endpoint's
 * {@code apiVersion} and {@code kind}, so they equal what a GET of the object answers; any other item
 * is copied, typed and encoded.
 */
final class EncodedList {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final byte[] ITEMS = ",\"items\":[".getBytes(StandardCharsets.UTF_8);

    private EncodedList() {
    }

    /**
     * The JSON of {@code {"kind":kind+"List","apiVersion":apiVersion,"metadata":listMeta,"items":[...]}}.
     *
     * @param kind  the items' kind
     * @param typed sets an object's apiVersion and kind to the endpoint's (changes and returns it)
     */
    static byte[] encode(String kind, String apiVersion, ObjectNode listMeta, ListResult result,
                         UnaryOperator<ObjectNode> typed) {
        ObjectNode envelope = F.objectNode();
        envelope.put("kind", kind + "List");
        envelope.put("apiVersion", apiVersion);
        envelope.set("metadata", listMeta);
        byte[] head = Codecs.toJson(envelope);
        byte[][] prefixes = {
                prefix("{\"apiVersion\":", apiVersion, ",\"kind\":", kind),
                prefix("{\"kind\":", kind, ",\"apiVersion\":", apiVersion),
        };

        List<ObjectNode> objects = result.items();
        byte[][] items = new byte[objects.size()][];
        long size = head.length - 1 + ITEMS.length + 2 + Math.max(0, items.length - 1);
        for (int i = 0; i < items.length; i++) {
            byte[] b = result.json().get(i).get();
            if (!startsWith(b, prefixes[0]) && !startsWith(b, prefixes[1])) {
                b = Codecs.toJson(typed.apply(objects.get(i)));
            }
            items[i] = b;
            size += b.length;
        }
        if (size > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("a list of " + size + " bytes is too large to answer");
        }

        byte[] out = new byte[(int) size];
        int pos = 0;
        System.arraycopy(head, 0, out, pos, head.length - 1); // without the envelope's closing brace
        pos += head.length - 1;
        System.arraycopy(ITEMS, 0, out, pos, ITEMS.length);
        pos += ITEMS.length;
        for (int i = 0; i < items.length; i++) {
            if (i > 0) {
                out[pos++] = ',';
            }
            System.arraycopy(items[i], 0, out, pos, items[i].length);
            pos += items[i].length;
        }
        out[pos++] = ']';
        out[pos] = '}';
        return out;
    }

    /** The start of an object's JSON whose first two fields are {@code a} and {@code b}, as Jackson writes them. */
    private static byte[] prefix(String fieldA, String a, String fieldB, String b) {
        String s = fieldA + new String(Codecs.toJson(F.textNode(a)), StandardCharsets.UTF_8)
                + fieldB + new String(Codecs.toJson(F.textNode(b)), StandardCharsets.UTF_8) + ",";
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static boolean startsWith(byte[] b, byte[] prefix) {
        return b.length >= prefix.length && Arrays.equals(b, 0, prefix.length, prefix, 0, prefix.length);
    }
}
