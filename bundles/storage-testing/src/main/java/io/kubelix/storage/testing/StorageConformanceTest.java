package io.kubelix.storage.testing;

import io.kubelix.api.storage.StorageBackend;

/**
 * The storage.Interface conformance suite (k8s' {@code storage/testing/store_tests.go}): every
 * promise of {@link io.kubelix.api.storage.StorageInterface}'s javadoc, checked against a real
 * backend. A backend's module subclasses this in its tests:
 *
 * <pre>{@code
 * class MemoryStorageConformanceTest extends StorageConformanceTest {
 *     protected StorageBackend newBackend() { return new MemoryStorageBackend(...); }
 * }
 * }</pre>
 *
 * Each test gets a fresh, empty backend. Override {@link #closeBackend} to release it and
 * {@link #compact} to let the expiry tests (410 Expired) run.
 */
public abstract class StorageConformanceTest extends TransformerConformance {

    /** A new, empty backend; called before every test. */
    @Override
    protected abstract StorageBackend newBackend();
}
