package io.kubelix.runtime.bootstrap;

import javax.crypto.spec.PBEParameterSpec;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;

/**
 * What HTTPS serves: a key store holding the serving key with its certificate chain, and the
 * password of the store and the key.
 */
public record ServingKeys(KeyStore store, char[] password, String description) {
    private static final SecureRandom SALTS = new SecureRandom();

    /**
     * A new PKCS12 key store that lives only in this process's memory, holding {@code key} and
     * {@code chain} under {@code alias}. The store is never written, so its password protects
     * nothing: the key is sealed with one PBKDF2 iteration instead of the JDK's 10,000, which
     * cost a start two derivations (sealing, and the key manager's unsealing) of 50 ms compiled
     * and up to a second still interpreted.
     */
    static KeyStore inMemoryStore(String alias, PrivateKey key, char[] password, Certificate[] chain)
            throws GeneralSecurityException, IOException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        byte[] salt = new byte[20];
        SALTS.nextBytes(salt);
        store.setEntry(alias, new KeyStore.PrivateKeyEntry(key, chain), new KeyStore.PasswordProtection(password,
                "PBEWithHmacSHA256AndAES_256", new PBEParameterSpec(salt, 1)));
        return store;
    }
}
