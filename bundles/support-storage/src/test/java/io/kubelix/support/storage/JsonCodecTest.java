package io.kubelix.support.storage;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JsonCodecTest {
    private final ObjectMapper mapper = new ObjectMapper();
    private final JsonCodec codec = new JsonCodec(mapper);

    private byte[] encode(String json) throws Exception {
        return codec.encode("/k", (ObjectNode) mapper.readTree(json));
    }

    @Test
    void fieldsInAnotherOrderAreTheSameContent() throws Exception {
        byte[] stored = encode("{\"metadata\":{\"name\":\"a\"},\"data\":{\"x\":\"1\",\"y\":\"2\"}}");
        byte[] again = encode("{\"data\":{\"y\":\"2\",\"x\":\"1\"},\"metadata\":{\"name\":\"a\",\"resourceVersion\":\"7\"}}");
        assertTrue(codec.sameContent("/k", again, stored));
    }

    @Test
    void aChangedValueOfTheSameLengthIsNot() throws Exception {
        byte[] stored = encode("{\"metadata\":{\"name\":\"a\"},\"data\":{\"x\":\"1\",\"y\":\"2\"}}");
        assertFalse(codec.sameContent("/k", encode("{\"metadata\":{\"name\":\"a\"},\"data\":{\"x\":\"3\",\"y\":\"2\"}}"), stored));
        // The same bytes in another order, but not the same fields: the parse decides.
        assertFalse(codec.sameContent("/k", encode("{\"metadata\":{\"name\":\"a\"},\"data\":{\"x\":\"2\",\"y\":\"1\"}}"), stored));
    }

    @Test
    void sameBytesComparesTheSumsOfTheBytes() {
        assertTrue(JsonCodec.sameBytes("abca".getBytes(StandardCharsets.UTF_8), "aacb".getBytes(StandardCharsets.UTF_8)));
        assertFalse(JsonCodec.sameBytes("abca".getBytes(StandardCharsets.UTF_8), "abcb".getBytes(StandardCharsets.UTF_8)));
    }
}
