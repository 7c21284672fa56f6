package io.kubelix.api.storage;

import org.osgi.annotation.versioning.ProviderType;

import java.nio.charset.StandardCharsets;

/**
 * kube's value.Transformer: what a stored value becomes between the codec and the backend's store,
 * such as the encryption at rest {@code --encryption-provider-config} configures. A backend hands
 * every value it writes through {@link #transformToStorage} and every value it reads through
 * {@link #transformFromStorage}, with the key it stores the value under as authenticated data (for
 * etcd the whole etcd key, {@code /registry/secrets/default/db}, as kube-apiserver's etcd3 store);
 * support-storage's codec does both. Core-runtime provides the transformer of each resource in its
 * {@link StorageConfig}; it may change while the server runs (a reloaded configuration), so a
 * backend asks it on every read and write instead of keeping what it answered.
 */
@ProviderType
public interface ValueTransformer {

    /**
     * A value read back: its plain bytes, and whether the stored form is stale, that is not
     * written the way a write would write it now (an older key or provider), so an update must write
     * it again even when the object is unchanged: this is how {@code kubectl replace} of every
     * object moves it to a new key.
     */
    record Read(byte[] data, boolean stale) {
    }

    /**
     * kube's default: values are stored as they are, and a value carrying the {@code k8s:enc:}
     * prefix of encrypted data is refused ("identity transformer tried to read encrypted data")
     * instead of being handed to the codec.
     */
    ValueTransformer IDENTITY = new ValueTransformer() {
        private static final byte[] ENCRYPTED = "k8s:enc:".getBytes(StandardCharsets.US_ASCII);

        @Override
        public Read transformFromStorage(byte[] stored, byte[] authenticatedData) {
            if (stored.length >= ENCRYPTED.length
                    && java.util.Arrays.equals(stored, 0, ENCRYPTED.length, ENCRYPTED, 0, ENCRYPTED.length)) {
                throw new IllegalStateException("identity transformer tried to read encrypted data");
            }
            return new Read(stored, false);
        }

        @Override
        public byte[] transformToStorage(byte[] data, byte[] authenticatedData) {
            return data;
        }

        @Override
        public String toString() {
            return "identity";
        }
    };

    /**
     * The plain bytes of a stored value.
     *
     * @throws RuntimeException with kube's message when the value cannot be read (no provider or key
     *                          matches its prefix, or it fails to decrypt or authenticate); the
     *                          codec reports it as an internal error naming the key
     */
    Read transformFromStorage(byte[] stored, byte[] authenticatedData);

    /**
     * The stored form of {@code data}.
     *
     * @throws RuntimeException when it cannot be transformed
     */
    byte[] transformToStorage(byte[] data, byte[] authenticatedData);
}
