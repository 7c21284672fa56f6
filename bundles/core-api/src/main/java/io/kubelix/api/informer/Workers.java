package io.kubelix.api.informer;

import org.osgi.annotation.versioning.ProviderType;

/**
 * The workers of a controller's queue, started by {@link SharedInformerFactory#runWorkers}: each
 * takes a key from the queue, {@linkplain Reconciler#reconcile reconciles} it, forgets its failures
 * when that succeeds and adds it back rate-limited when it throws, until the queue shuts down.
 */
@ProviderType
public interface Workers extends AutoCloseable {

    /**
     * Shuts the queue down, lets the workers finish the keys still queued and being reconciled
     * (client-go's {@code ShutDownWithDrain}), and waits for them to end: nothing of the controller
     * runs after this returns. Safe to call more than once.
     */
    void stop();

    /** {@link #stop()}. */
    @Override
    default void close() {
        stop();
    }
}
