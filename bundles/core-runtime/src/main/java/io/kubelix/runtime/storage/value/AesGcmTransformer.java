package io.kubelix.runtime.storage.value;

import io.kubelix.api.storage.ValueTransformer;

import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;

/**
 * kube's aesgcm provider (aes.NewGCMTransformer): a random 12-byte nonce, then the AES-GCM
 * ciphertext with its 16-byte tag, authenticating the key the value is stored under (kube's
 * DataCtx), so a value copied to another key does not decrypt there.
 */
public final class AesGcmTransformer implements ValueTransformer {
    private static final int NONCE = 12;
    private static final int TAG_BITS = 128;

    private final SecretKeySpec key;
    private final SecureRandom random;

    /** @param key 16, 24 or 32 bytes */
    public AesGcmTransformer(byte[] key, SecureRandom random) {
        this.key = new SecretKeySpec(key, "AES");
        this.random = random;
    }

    @Override
    public Read transformFromStorage(byte[] stored, byte[] authenticatedData) {
        if (stored.length < NONCE) {
            throw new IllegalStateException("the stored data was shorter than the required size");
        }
        try {
            Cipher cipher = cipher(Cipher.DECRYPT_MODE, Arrays.copyOf(stored, NONCE), authenticatedData);
            return new Read(cipher.doFinal(stored, NONCE, stored.length - NONCE), false);
        } catch (AEADBadTagException e) {
            throw new IllegalStateException("cipher: message authentication failed");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM: " + e.getMessage(), e);
        }
    }

    @Override
    public byte[] transformToStorage(byte[] data, byte[] authenticatedData) {
        byte[] nonce = new byte[NONCE];
        random.nextBytes(nonce);
        try {
            byte[] sealed = cipher(Cipher.ENCRYPT_MODE, nonce, authenticatedData).doFinal(data);
            byte[] out = Arrays.copyOf(nonce, NONCE + sealed.length);
            System.arraycopy(sealed, 0, out, NONCE, sealed.length);
            return out;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM: " + e.getMessage(), e);
        }
    }

    private Cipher cipher(int mode, byte[] nonce, byte[] authenticatedData) throws GeneralSecurityException {
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(mode, key, new GCMParameterSpec(TAG_BITS, nonce));
        cipher.updateAAD(authenticatedData);
        return cipher;
    }
}
