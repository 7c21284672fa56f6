package io.kubelix.runtime.storage.value;

import org.junit.jupiter.api.Test;

import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The secretbox provider against NaCl's own vector (the one Go's x/crypto/nacl/secretbox tests
 * with, made by the C implementation): key of 1s, nonce of 2s, 64 bytes of 3s; kube stores the nonce
 * and then that box.
 */
class SecretboxTransformerTest {
    private static final String BOX = "8442bc313f4626f1359e3b50122b6ce6fe66ddfe7d39d14e637eb4fd5b45beadab55198df6ab5368"
            + "439792a23c87db70acb6156dc5ef957ac04f6276cf6093b84be77ff0849cc33e34b7254d5a8f65ad";

    private static byte[] filled(int length, int value) {
        byte[] b = new byte[length];
        Arrays.fill(b, (byte) value);
        return b;
    }

    private static byte[] stored() {
        byte[] box = HexFormat.of().parseHex(BOX);
        byte[] stored = Arrays.copyOf(filled(24, 2), 24 + box.length);
        System.arraycopy(box, 0, stored, 24, box.length);
        return stored;
    }

    @Test
    void sealsAsNaCl() {
        SecretboxTransformer t = new SecretboxTransformer(filled(32, 1), new FixedRandom(2));
        assertArrayEquals(stored(), t.transformToStorage(filled(64, 3), new byte[0]));
    }

    @Test
    void opensNaClsBox() {
        SecretboxTransformer t = new SecretboxTransformer(filled(32, 1), new SecureRandom());
        assertArrayEquals(filled(64, 3), t.transformFromStorage(stored(), new byte[0]).data());
    }

    @Test
    void refusesATamperedBoxWithKubesWords() {
        SecretboxTransformer t = new SecretboxTransformer(filled(32, 1), new SecureRandom());
        byte[] stored = stored();
        stored[stored.length - 1] ^= 1;
        assertEquals("output array was not large enough for encryption",
                assertThrows(IllegalStateException.class, () -> t.transformFromStorage(stored, null)).getMessage());
        assertEquals("the stored data was shorter than the required size",
                assertThrows(IllegalStateException.class, () -> t.transformFromStorage(new byte[39], null)).getMessage());
    }

    @Test
    void roundTripsAnEmptyValue() {
        SecretboxTransformer t = new SecretboxTransformer(filled(32, 7), new SecureRandom());
        assertArrayEquals(new byte[0], t.transformFromStorage(t.transformToStorage(new byte[0], null), null).data());
    }
}
