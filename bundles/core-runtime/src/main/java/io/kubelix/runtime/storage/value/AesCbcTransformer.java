package io.kubelix.runtime.storage.value;

import io.kubelix.api.storage.ValueTransformer;

import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;

/**
 * kube's aescbc provider (aes.NewCBCTransformer): a random 16-byte IV, then the value PKCS#7-padded
 * and encrypted with AES-CBC. Nothing authenticates it, so the authenticated data is not used, as
 * in kube; its errors are kube's words.
 */
public final class AesCbcTransformer implements ValueTransformer {
    private static final int BLOCK = 16;

    private final SecretKeySpec key;
    private final SecureRandom random;

    /** @param key 16, 24 or 32 bytes */
    public AesCbcTransformer(byte[] key, SecureRandom random) {
        this.key = new SecretKeySpec(key, "AES");
        this.random = random;
    }

    @Override
    public Read transformFromStorage(byte[] stored, byte[] authenticatedData) {
        if (stored.length < BLOCK) {
            throw new IllegalStateException("the stored data was shorter than the required size");
        }
        if ((stored.length - BLOCK) % BLOCK != 0) {
            throw new IllegalStateException("the stored data is not a multiple of the block size");
        }
        if (stored.length == BLOCK) {
            throw new IllegalStateException("invalid PKCS7 data (empty or not padded)");
        }
        byte[] plain = crypt(Cipher.DECRYPT_MODE, Arrays.copyOf(stored, BLOCK), stored, BLOCK);
        int padding = plain[plain.length - 1] & 0xff;
        if (padding == 0 || padding > plain.length) {
            throw new IllegalStateException("invalid PKCS7 data (empty or not padded)");
        }
        for (int i = plain.length - padding; i < plain.length; i++) {
            if ((plain[i] & 0xff) != padding) {
                throw new IllegalStateException("invalid padding on input");
            }
        }
        return new Read(Arrays.copyOf(plain, plain.length - padding), false);
    }

    @Override
    public byte[] transformToStorage(byte[] data, byte[] authenticatedData) {
        int padding = BLOCK - data.length % BLOCK;
        byte[] padded = Arrays.copyOf(data, data.length + padding);
        Arrays.fill(padded, data.length, padded.length, (byte) padding);
        byte[] iv = new byte[BLOCK];
        random.nextBytes(iv);
        byte[] out = Arrays.copyOf(iv, BLOCK + padded.length);
        byte[] encrypted = crypt(Cipher.ENCRYPT_MODE, iv, padded, 0);
        System.arraycopy(encrypted, 0, out, BLOCK, encrypted.length);
        return out;
    }

    private byte[] crypt(int mode, byte[] iv, byte[] data, int offset) {
        try {
            Cipher cipher = Cipher.getInstance("AES/CBC/NoPadding");
            cipher.init(mode, key, new IvParameterSpec(iv));
            return cipher.doFinal(data, offset, data.length - offset);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-CBC: " + e.getMessage(), e);
        }
    }
}
