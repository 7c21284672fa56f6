package io.kubelix.support.storage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.storage.APIObjectVersioner;
import io.kubelix.api.storage.StorageException;

import java.io.IOException;
import java.util.Arrays;

/**
 * Turns objects into the bytes the store keeps and back. Stored bytes never carry a
 * resourceVersion; decoding sets it to the revision the caller names. Holds the bundle's one
 * ObjectMapper, which never leaves the bundle.
 */
public final class JsonCodec {
    private final ObjectMapper mapper;

    public JsonCodec(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    public ObjectMapper mapper() {
        return mapper;
    }

    /** Serializes {@code obj} without its resourceVersion; {@code obj} is not modified. */
    public byte[] encode(String key, ObjectNode obj) {
        ObjectNode toStore = obj;
        if (obj.path("metadata").has("resourceVersion")) {
            toStore = obj.deepCopy();
            ((ObjectNode) toStore.get("metadata")).remove("resourceVersion");
        }
        try {
            return mapper.writeValueAsBytes(toStore);
        } catch (IOException e) {
            throw new StorageException(StorageException.Code.INVALID_OBJECT, key, "cannot serialize object: " + e.getMessage(), e);
        }
    }

    /** A fresh tree of the stored bytes, with {@code metadata.resourceVersion} set to {@code revision}. */
    public ObjectNode decode(String key, byte[] data, long revision) {
        ObjectNode obj = parse(key, data);
        APIObjectVersioner.INSTANCE.updateObject(obj, revision);
        return obj;
    }

    /** True when both serialized objects hold the same content, whatever the order of their fields. */
    public boolean sameContent(String key, byte[] a, byte[] b) {
        return Arrays.equals(a, b) || a.length == b.length && parse(key, a).equals(parse(key, b));
    }

    private ObjectNode parse(String key, byte[] data) {
        try {
            JsonNode node = mapper.readTree(data);
            if (node instanceof ObjectNode obj) {
                return obj;
            }
            throw new StorageException(StorageException.Code.INTERNAL, key, 0, "stored value is not an object: " + key);
        } catch (IOException e) {
            throw new StorageException(StorageException.Code.INTERNAL, key, "cannot decode stored value: " + e.getMessage(), e);
        }
    }
}
