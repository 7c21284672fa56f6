package io.kubelix.api.informer;

import org.osgi.annotation.versioning.ProviderType;

import java.time.Duration;

/**
 * A handler added to an informer (client-go's {@code ResourceEventHandlerRegistration}). Closing it
 * removes the handler: notifications not yet delivered are dropped, and none is delivered after
 * {@link #close()} returns, except the one running at that moment.
 */
@ProviderType
public interface ResourceEventHandlerRegistration extends AutoCloseable {

    /**
     * True once this handler has been given every object of the informer's first list (or, when
     * added later, every object cached when it was added) with {@code isInInitialList} set.
     */
    boolean hasSynced();

    /**
     * Waits until {@link #hasSynced()}, or the timeout passes, or the informer stops.
     *
     * @return whether the handler has synced
     */
    boolean waitForSync(Duration timeout) throws InterruptedException;

    /** Removes the handler; safe to call more than once. */
    @Override
    void close();
}
