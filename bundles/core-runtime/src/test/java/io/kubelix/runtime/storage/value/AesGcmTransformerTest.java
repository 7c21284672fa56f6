package io.kubelix.runtime.storage.value;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The aesgcm provider against a value built by hand in kube's layout (Python's cryptography): nonce
 * b0..bb, then AES-GCM of a Secret's JSON with its etcd key as additional data.
 */
class AesGcmTransformerTest {
    static final byte[] ETCD_KEY = "/registry/secrets/default/s1".getBytes(StandardCharsets.UTF_8);
    /** {@code k8s:enc:aesgcm:v1:key1:} + nonce + ciphertext and tag. */
    static final String STORED = "azhzOmVuYzphZXNnY206djE6a2V5MTqwsbKztLW2t7i5urvidzHCgqmZZWWr8sG/OPzgqB4oonx46kctp+2ffrjQ"
            + "YDRpDxgOu9LZwTrUKx6D+ZdDDHqiOQFgg3yoQBJq+k2awZhf12+eXPh9ucQ/62qWEzu869bJDBT/z4Ba4EoqfMgM0hp59PVXXgg7fpvEo4"
            + "3nMIuV6g4Cn1K2mVM5wuzm7Zg+hQQW";
    static final int PREFIX = "k8s:enc:aesgcm:v1:key1:".length();

    private final AesGcmTransformer gcm = new AesGcmTransformer(AesCbcTransformerTest.KEY, new SecureRandom());

    @Test
    void readsKubesLayoutWithTheKeyAsAuthenticatedData() {
        byte[] stored = Base64.getDecoder().decode(STORED);
        byte[] value = Arrays.copyOfRange(stored, PREFIX, stored.length);
        assertEquals(AesCbcTransformerTest.PLAIN,
                new String(gcm.transformFromStorage(value, ETCD_KEY).data(), StandardCharsets.UTF_8));
        // the same value under another key does not decrypt
        assertEquals("cipher: message authentication failed", assertThrows(IllegalStateException.class,
                () -> gcm.transformFromStorage(value, "/registry/secrets/default/s2".getBytes(StandardCharsets.UTF_8)))
                .getMessage());
    }

    @Test
    void writesKubesLayout() {
        byte[] stored = Base64.getDecoder().decode(STORED);
        byte[] nonce = Arrays.copyOfRange(stored, PREFIX, PREFIX + 12);
        byte[] written = new AesGcmTransformer(AesCbcTransformerTest.KEY, new FixedRandom(0)).transformToStorage(AesCbcTransformerTest.PLAIN.getBytes(StandardCharsets.UTF_8), ETCD_KEY);
        assertEquals(stored.length - PREFIX, written.length);
        assertArrayEquals(new byte[12], Arrays.copyOf(written, 12));
        // with kube's nonce, the bytes are kube's
        byte[] again = new AesGcmTransformer(AesCbcTransformerTest.KEY, new SecureRandom() {
            @Override
            public void nextBytes(byte[] bytes) {
                System.arraycopy(nonce, 0, bytes, 0, bytes.length);
            }
        }).transformToStorage(AesCbcTransformerTest.PLAIN.getBytes(StandardCharsets.UTF_8), ETCD_KEY);
        assertArrayEquals(Arrays.copyOfRange(stored, PREFIX, stored.length), again);
    }

    @Test
    void refusesShortData() {
        assertEquals("the stored data was shorter than the required size",
                assertThrows(IllegalStateException.class, () -> gcm.transformFromStorage(new byte[5], ETCD_KEY)).getMessage());
    }
}
