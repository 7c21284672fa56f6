package io.kubelix.storage.etcd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.storage.APIObjectVersioner;
import io.kubelix.api.storage.StorageException;

import java.io.IOException;
import java.util.Arrays;

/**
 * Objects to the JSON bytes etcd keeps, and back. Stored bytes never carry a resourceVersion (it
 * is etcd's mod_revision); decoding sets it. Holds the bundle's one ObjectMapper.
 */
final class JsonCodec {
    private final ObjectMapper mapper;

    JsonCodec(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    ObjectMapper mapper() {
        return mapper;
    }

    /** The JSON of {@code obj} without its resourceVersion; {@code obj} is not modified. */
    byte[] encode(String key, ObjectNode obj) {
        ObjectNode toStore = obj;
        if (obj.path("metadata").has("resourceVersion")) {
            toStore = obj.deepCopy();
            ((ObjectNode) toStore.get("metadata")).remove("resourceVersion");
        }
        try {
            return mapper.writeValueAsBytes(toStore);
        } catch (IOException e) {
            throw new StorageException(StorageException.Code.INVALID_OBJECT, key,
                    "cannot serialize object: " + e.getMessage(), e);
        }
    }

    /** A fresh tree of stored bytes with {@code metadata.resourceVersion} set to {@code revision}. */
    ObjectNode decode(String key, byte[] data, long revision) {
        ObjectNode obj = parse(key, data);
        APIObjectVersioner.INSTANCE.updateObject(obj, revision);
        return obj;
    }

    /** True when both values hold the same object, whatever the order of their fields. */
    boolean sameContent(String key, byte[] a, byte[] b) {
        return Arrays.equals(a, b) || parse(key, a).equals(parse(key, b));
    }

    private ObjectNode parse(String key, byte[] data) {
        try {
            JsonNode node = mapper.readTree(data);
            if (node instanceof ObjectNode obj) {
                return obj;
            }
            throw new StorageException(StorageException.Code.INTERNAL, key, 0, "stored value is not an object: " + key);
        } catch (IOException e) {
            throw new StorageException(StorageException.Code.INTERNAL, key,
                    "cannot decode stored value of " + key + ": " + e.getMessage(), e);
        }
    }
}
