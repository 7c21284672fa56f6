package io.kubelix.runtime.storage.cacher;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertSame;

/** Each encoding of a cached object is computed once, for every client that asks for it. */
class CachingObjectTest {
    @Test
    void eachEncodingIsComputedOnce() throws Exception {
        ObjectNode cm = (ObjectNode) new ObjectMapper().readTree(
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\"},\"data\":{\"k\":\"v\"}}");
        CachingObject cached = StoreElement.encodingOf(cm);

        assertSame(cached.get(), cached.get());
        assertSame(cached.protobuf(), cached.protobuf());
    }
}
