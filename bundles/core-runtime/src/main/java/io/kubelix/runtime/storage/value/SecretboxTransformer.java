package io.kubelix.runtime.storage.value;

import io.kubelix.api.storage.ValueTransformer;
import org.bouncycastle.crypto.engines.XSalsa20Engine;
import org.bouncycastle.crypto.macs.Poly1305;
import org.bouncycastle.crypto.params.KeyParameter;
import org.bouncycastle.crypto.params.ParametersWithIV;

import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;

/**
 * kube's secretbox provider (NaCl's crypto_secretbox, XSalsa20 and Poly1305, as Go's
 * x/crypto/nacl/secretbox): a random 24-byte nonce, then the 16-byte Poly1305 tag and the
 * ciphertext. The first 32 bytes of the XSalsa20 key stream are the one-time Poly1305 key, the
 * rest encrypts the value. BouncyCastle, which core-runtime already uses for certificates, has both
 * primitives; the JDK has neither. The authenticated data is not used, as in kube.
 */
public final class SecretboxTransformer implements ValueTransformer {
    private static final int NONCE = 24;
    private static final int TAG = 16;

    private final byte[] key;
    private final SecureRandom random;

    /** @param key 32 bytes */
    public SecretboxTransformer(byte[] key, SecureRandom random) {
        this.key = key.clone();
        this.random = random;
    }

    @Override
    public Read transformFromStorage(byte[] stored, byte[] authenticatedData) {
        if (stored.length < NONCE + TAG) {
            throw new IllegalStateException("the stored data was shorter than the required size");
        }
        XSalsa20Engine stream = stream(Arrays.copyOf(stored, NONCE));
        byte[] tag = poly1305(oneTimeKey(stream), stored, NONCE + TAG);
        if (!MessageDigest.isEqual(tag, Arrays.copyOfRange(stored, NONCE, NONCE + TAG))) {
            // kube's words for a box that does not open
            throw new IllegalStateException("output array was not large enough for encryption");
        }
        byte[] plain = new byte[stored.length - NONCE - TAG];
        stream.processBytes(stored, NONCE + TAG, plain.length, plain, 0);
        return new Read(plain, false);
    }

    @Override
    public byte[] transformToStorage(byte[] data, byte[] authenticatedData) {
        byte[] out = new byte[NONCE + TAG + data.length];
        byte[] nonce = new byte[NONCE];
        random.nextBytes(nonce);
        System.arraycopy(nonce, 0, out, 0, NONCE);
        XSalsa20Engine stream = stream(nonce);
        byte[] macKey = oneTimeKey(stream);
        stream.processBytes(data, 0, data.length, out, NONCE + TAG);
        System.arraycopy(poly1305(macKey, out, NONCE + TAG), 0, out, NONCE, TAG);
        return out;
    }

    private XSalsa20Engine stream(byte[] nonce) {
        XSalsa20Engine engine = new XSalsa20Engine();
        engine.init(true, new ParametersWithIV(new KeyParameter(key), nonce));
        return engine;
    }

    /** The Poly1305 key: the first 32 bytes of the key stream, which the value's encryption then follows. */
    private static byte[] oneTimeKey(XSalsa20Engine stream) {
        byte[] macKey = new byte[32];
        stream.processBytes(macKey, 0, macKey.length, macKey, 0);
        return macKey;
    }

    private static byte[] poly1305(byte[] macKey, byte[] data, int offset) {
        Poly1305 poly = new Poly1305();
        poly.init(new KeyParameter(macKey));
        poly.update(data, offset, data.length - offset);
        byte[] tag = new byte[TAG];
        poly.doFinal(tag, 0);
        return tag;
    }
}
