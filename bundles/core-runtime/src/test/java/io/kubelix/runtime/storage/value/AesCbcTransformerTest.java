package io.kubelix.runtime.storage.value;

import io.kubelix.api.storage.ValueTransformer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The aescbc provider against a value built by hand in kube's layout (by another implementation of
 * AES: Python's cryptography): IV a0..af, then PKCS#7-padded AES-CBC of a Secret's JSON.
 */
class AesCbcTransformerTest {
    static final byte[] KEY = new byte[32];
    static final String PLAIN = "{\"kind\":\"Secret\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"s1\",\"namespace\":"
            + "\"default\"},\"data\":{\"password\":\"aHVudGVyMg==\"}}";
    /** {@code k8s:enc:aescbc:v1:key1:} + IV + ciphertext, as kube-apiserver stores it. */
    static final String STORED = "azhzOmVuYzphZXNjYmM6djE6a2V5MTqgoaKjpKWmp6ipqqusra6v2lToger65o80qi3bAOVrUjcnIaVaiXMhhz7O"
            + "BvcZzchu325vB2WxX0Xo6bLFMtMSk2vkQjeK2qylE6XmnTm5htxLX+MYeq3S+W2k4lQ0hCiOCzl64H6DWLcFuI1L/povFQTZdh6FUPIhF"
            + "Pvlm154LQouT3xqdtVMAw3eMCm+nDM=";
    static final int PREFIX = "k8s:enc:aescbc:v1:key1:".length();

    static {
        for (int i = 0; i < KEY.length; i++) {
            KEY[i] = (byte) i;
        }
    }

    private final AesCbcTransformer cbc = new AesCbcTransformer(KEY, new SecureRandom());

    @Test
    void readsKubesLayout() {
        byte[] stored = Base64.getDecoder().decode(STORED);
        ValueTransformer.Read read = cbc.transformFromStorage(Arrays.copyOfRange(stored, PREFIX, stored.length), new byte[0]);
        assertEquals(PLAIN, new String(read.data(), StandardCharsets.UTF_8));
        assertFalse(read.stale());
    }

    @Test
    void writesKubesLayout() {
        byte[] stored = Base64.getDecoder().decode(STORED);
        byte[] written = new AesCbcTransformer(KEY, new FixedRandom(0)).transformToStorage(PLAIN.getBytes(StandardCharsets.UTF_8), new byte[0]);
        // only the IV differs: the same length, and it reads back
        assertEquals(stored.length - PREFIX, written.length);
        assertArrayEquals(new byte[16], Arrays.copyOf(written, 16));
        assertEquals(PLAIN, new String(cbc.transformFromStorage(written, new byte[0]).data(), StandardCharsets.UTF_8));
    }

    @Test
    void padsAWholeBlockWhenTheValueFillsOne() {
        byte[] sixteen = "0123456789abcdef".getBytes(StandardCharsets.UTF_8);
        byte[] written = cbc.transformToStorage(sixteen, new byte[0]);
        assertEquals(48, written.length);
        assertArrayEquals(sixteen, cbc.transformFromStorage(written, new byte[0]).data());
    }

    @Test
    void refusesWhatKubeRefuses() {
        assertEquals("the stored data was shorter than the required size",
                assertThrows(IllegalStateException.class, () -> cbc.transformFromStorage(new byte[8], null)).getMessage());
        assertEquals("the stored data is not a multiple of the block size",
                assertThrows(IllegalStateException.class, () -> cbc.transformFromStorage(new byte[20], null)).getMessage());
        byte[] written = cbc.transformToStorage("x".getBytes(StandardCharsets.UTF_8), new byte[0]);
        byte[] otherKey = new byte[32];
        RuntimeException e = assertThrows(IllegalStateException.class,
                () -> new AesCbcTransformer(otherKey, new SecureRandom()).transformFromStorage(written, null));
        // a wrong key shows as bad padding, as in kube
        assertEquals(true, e.getMessage().startsWith("invalid"), e.getMessage());
    }
}
