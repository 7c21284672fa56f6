package io.kubelix.runtime.storage.value;

import io.kubelix.api.storage.ValueTransformer;
import io.kubelix.runtime.storage.value.PrefixTransformers.PrefixTransformer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** kube's prefixTransformers: the first writes, the prefix chooses the reader, anything but the first is stale. */
class PrefixTransformersTest {
    private static final byte[] AD = new byte[0];
    private final ValueTransformer key1 = keys("key1", 1);
    private final ValueTransformer key2 = keys("key2", 2);

    private static ValueTransformer keys(String name, int fill) {
        byte[] key = new byte[32];
        java.util.Arrays.fill(key, (byte) fill);
        return new PrefixTransformers("no matching key was found for the provided AES transformer",
                List.of(PrefixTransformer.of(name + ":", new AesCbcTransformer(key, new SecureRandom()))));
    }

    private static String text(ValueTransformer.Read read) {
        return new String(read.data(), StandardCharsets.UTF_8);
    }

    @Test
    void theFirstWritesAndAnyReads() {
        ValueTransformer rotating = providers(PrefixTransformer.of("k8s:enc:aescbc:v1:", key2),
                PrefixTransformer.of("k8s:enc:aescbc:v1:", key1), PrefixTransformer.of("", ValueTransformer.IDENTITY));
        ValueTransformer old = providers(PrefixTransformer.of("k8s:enc:aescbc:v1:", key1));
        byte[] underKey1 = old.transformToStorage("{}".getBytes(StandardCharsets.UTF_8), AD);
        assertTrue(new String(underKey1, StandardCharsets.ISO_8859_1).startsWith("k8s:enc:aescbc:v1:key1:"));

        // key2 fails on it, key1 (same prefix, later) reads it: stale, so a rewrite moves it to key2
        ValueTransformer.Read read = rotating.transformFromStorage(underKey1, AD);
        assertEquals("{}", text(read));
        assertTrue(read.stale());
        byte[] underKey2 = rotating.transformToStorage(read.data(), AD);
        assertTrue(new String(underKey2, StandardCharsets.ISO_8859_1).startsWith("k8s:enc:aescbc:v1:key2:"));
        assertFalse(rotating.transformFromStorage(underKey2, AD).stale());

        // a value stored before encryption is read by identity, and stale
        ValueTransformer.Read plain = rotating.transformFromStorage("{\"a\":1}".getBytes(StandardCharsets.UTF_8), AD);
        assertEquals("{\"a\":1}", text(plain));
        assertTrue(plain.stale());
    }

    @Test
    void withoutIdentityAPlainValueIsRefused() {
        ValueTransformer encrypting = providers(PrefixTransformer.of("k8s:enc:aescbc:v1:", key1));
        assertEquals("no matching prefix found", assertThrows(IllegalStateException.class,
                () -> encrypting.transformFromStorage("{}".getBytes(StandardCharsets.UTF_8), AD)).getMessage());
    }

    @Test
    void identityFirstReadsEncryptedValuesThroughTheLaterProviders() {
        ValueTransformer decrypting = providers(PrefixTransformer.of("", ValueTransformer.IDENTITY),
                PrefixTransformer.of("k8s:enc:aescbc:v1:", key1));
        byte[] encrypted = providers(PrefixTransformer.of("k8s:enc:aescbc:v1:", key1))
                .transformToStorage("{}".getBytes(StandardCharsets.UTF_8), AD);
        ValueTransformer.Read read = decrypting.transformFromStorage(encrypted, AD);
        assertEquals("{}", text(read));
        assertTrue(read.stale());
        assertEquals("{}", new String(decrypting.transformToStorage("{}".getBytes(StandardCharsets.UTF_8), AD),
                StandardCharsets.UTF_8));
    }

    @Test
    void anUnknownKeyIsKubesError() {
        byte[] underKey2 = providers(PrefixTransformer.of("k8s:enc:aescbc:v1:", key2))
                .transformToStorage("{}".getBytes(StandardCharsets.UTF_8), AD);
        assertEquals("no matching key was found for the provided AES transformer", assertThrows(IllegalStateException.class,
                () -> providers(PrefixTransformer.of("k8s:enc:aescbc:v1:", key1)).transformFromStorage(underKey2, AD))
                .getMessage());
    }

    private static ValueTransformer providers(PrefixTransformer... transformers) {
        return new PrefixTransformers("no matching prefix found", List.of(transformers));
    }
}
