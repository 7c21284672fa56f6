package io.kubelix.runtime.storage.encryptionconfig;

import java.util.List;

/**
 * kube's apiserver.config.k8s.io/v1 EncryptionConfiguration as read from the file, before
 * validation: which resources each entry covers and its providers, in order.
 */
public record EncryptionConfiguration(List<ResourceConfiguration> resources) {

    /** One entry of {@code resources}: resource names ({@code secrets}, {@code *.apps}, {@code *.*}) and their providers. */
    public record ResourceConfiguration(List<String> resources, List<ProviderConfiguration> providers) {
    }

    /**
     * One entry of {@code providers}: the providers named in it ({@code aescbc}, {@code aesgcm},
     * {@code secretbox}, {@code identity}, {@code kms}; exactly one is valid) and their keys.
     *
     * @param kmsName the {@code kms} provider's name, when one is given
     */
    public record ProviderConfiguration(List<String> names, List<Key> keys, String kmsName) {
        /** The one provider named, or null when there is not exactly one. */
        public String name() {
            return names.size() == 1 ? names.get(0) : null;
        }
    }

    /** A named key; {@code secret} is base64 as written in the file. */
    public record Key(String name, String secret) {
        @Override
        public String toString() {
            return "Key[name=" + name + ", secret=REDACTED]";
        }
    }
}
