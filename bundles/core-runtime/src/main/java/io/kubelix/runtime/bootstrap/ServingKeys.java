package io.kubelix.runtime.bootstrap;

import java.security.KeyStore;

/**
 * What HTTPS serves: a key store holding the serving key with its certificate chain, and the
 * password of the store and the key.
 */
public record ServingKeys(KeyStore store, char[] password, String description) {
}
