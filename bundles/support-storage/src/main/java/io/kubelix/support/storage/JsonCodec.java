package io.kubelix.support.storage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.storage.APIObjectVersioner;
import io.kubelix.api.storage.StorageConfig;
import io.kubelix.api.storage.StorageException;
import io.kubelix.api.storage.ValueTransformer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Turns objects into the bytes the store keeps and back. Stored bytes never carry a
 * resourceVersion; decoding sets it to the revision the caller names. Holds the bundle's one
 * ObjectMapper, which never leaves the bundle. A resource's codec ({@link #forResource}) also
 * passes every value through the resource's {@link ValueTransformer} (kube puts the transformer
 * between the codec and the store), so a backend gets encryption at rest by using it.
 */
public final class JsonCodec {
    private final ObjectMapper mapper;
    private final ValueTransformer transformer;
    /** Put before a storage key to make the key the store keeps the value under: the authenticated data. */
    private final String storedKeyPrefix;

    public JsonCodec(ObjectMapper mapper) {
        this(mapper, ValueTransformer.IDENTITY, "");
    }

    private JsonCodec(ObjectMapper mapper, ValueTransformer transformer, String storedKeyPrefix) {
        this.mapper = mapper;
        this.transformer = transformer;
        this.storedKeyPrefix = storedKeyPrefix;
    }

    /**
     * The codec of one resource: values pass through {@code config.transformer()}, authenticated by
     * the key the backend stores them under, {@code storedKeyPrefix} followed by the storage key
     * (etcd's {@code /registry}, as kube-apiserver; empty where keys are stored as they are).
     */
    public JsonCodec forResource(StorageConfig config, String storedKeyPrefix) {
        return new JsonCodec(mapper, config.transformer(), storedKeyPrefix);
    }

    public ObjectMapper mapper() {
        return mapper;
    }

    /** The stored form of {@code obj}, without its resourceVersion; {@code obj} is not modified. */
    public byte[] encode(String key, ObjectNode obj) {
        ObjectNode toStore = obj;
        if (obj.path("metadata").has("resourceVersion")) {
            toStore = obj.deepCopy();
            ((ObjectNode) toStore.get("metadata")).remove("resourceVersion");
        }
        byte[] data;
        try {
            data = mapper.writeValueAsBytes(toStore);
        } catch (IOException e) {
            throw new StorageException(StorageException.Code.INVALID_OBJECT, key, "cannot serialize object: " + e.getMessage(), e);
        }
        try {
            return transformer.transformToStorage(data, authenticatedData(key));
        } catch (RuntimeException e) {
            throw transformFailed(key, e);
        }
    }

    /** A fresh tree of the stored bytes, with {@code metadata.resourceVersion} set to {@code revision}. */
    public ObjectNode decode(String key, byte[] data, long revision) {
        ObjectNode obj = parse(key, read(key, data).data());
        APIObjectVersioner.INSTANCE.updateObject(obj, revision);
        return obj;
    }

    /**
     * True when {@code stored} need not be written again to hold {@code encoded} (both as
     * {@link #encode} makes them): the same content, whatever the order of its fields, stored the
     * way a write stores it now. A value stored under an older key or provider is stale (kube's
     * GuaranteedUpdate writes it even when unchanged), so rewriting objects moves them to the new key.
     */
    public boolean sameContent(String key, byte[] encoded, byte[] stored) {
        if (Arrays.equals(encoded, stored)) {
            return true;
        }
        ValueTransformer.Read current = read(key, stored);
        if (current.stale()) {
            return false;
        }
        byte[] a = read(key, encoded).data();
        byte[] b = current.data();
        return Arrays.equals(a, b) || a.length == b.length && sameBytes(a, b) && parse(key, a).equals(parse(key, b));
    }

    /**
     * Whether the sums of both's bytes, and of their squares, are equal: the same fields in another
     * order give equal sums, so when they differ (an update that changed a value, mostly) the two
     * parses are spared. Sums, not counts of each byte value: a count per byte stalls on a run of
     * one character.
     */
    static boolean sameBytes(byte[] a, byte[] b) {
        long sum = 0;
        long squares = 0;
        for (int i = 0; i < a.length; i++) {
            int x = a[i] & 0xff;
            int y = b[i] & 0xff;
            sum += x - y;
            squares += x * x - y * y;
        }
        return sum == 0 && squares == 0;
    }

    private ValueTransformer.Read read(String key, byte[] stored) {
        try {
            return transformer.transformFromStorage(stored, authenticatedData(key));
        } catch (RuntimeException e) {
            throw transformFailed(key, e);
        }
    }

    // kube's words: the key as the store keeps it, and why its value cannot be transformed.
    private StorageException transformFailed(String key, RuntimeException e) {
        return new StorageException(StorageException.Code.INTERNAL, key, "unable to transform key \""
                + storedKeyPrefix + key + "\": " + e.getMessage(), e);
    }

    private byte[] authenticatedData(String key) {
        return (storedKeyPrefix + key).getBytes(StandardCharsets.UTF_8);
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
