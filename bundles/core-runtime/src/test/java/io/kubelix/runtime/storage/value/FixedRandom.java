package io.kubelix.runtime.storage.value;

import java.security.SecureRandom;
import java.util.Arrays;

/** A "random" source that always gives the same byte, so a written value can be compared to a vector. */
final class FixedRandom extends SecureRandom {
    private final byte value;

    FixedRandom(int value) {
        this.value = (byte) value;
    }

    @Override
    public void nextBytes(byte[] bytes) {
        Arrays.fill(bytes, value);
    }
}
