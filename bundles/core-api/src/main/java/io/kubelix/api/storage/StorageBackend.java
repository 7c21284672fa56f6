package io.kubelix.api.storage;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * What a storage bundle registers: a backend that hands out a {@link StorageInterface} per
 * resource, all sharing one revision sequence. The service property {@link #NAME_PROPERTY} names
 * the backend (the value of {@code --storage-backend}: {@code memory}, {@code etcd3}).
 */
@ConsumerType
public interface StorageBackend {
    /** Service property naming the backend. */
    String NAME_PROPERTY = "kubelix.storage.backend";

    /**
     * The storage of one resource. Called once per resource; the result is kept by core-runtime.
     * Every value it writes and reads passes through {@link StorageConfig#transformer()}, with the
     * key the backend stores it under as authenticated data.
     */
    StorageInterface forResource(StorageConfig config);
}
