package io.kubelix.api.informer;

import org.osgi.annotation.versioning.ConsumerType;

import java.time.Duration;

/**
 * How long an item waits before it is retried (client-go's {@code workqueue.RateLimiter}). Called
 * by a {@link RateLimitingQueue} from several threads: implementations must be thread-safe.
 */
@ConsumerType
public interface RateLimiter<T> {

    /** How long {@code item} should wait now; each call counts as one more failure of it. */
    Duration when(T item);

    /** Stops tracking {@code item}: it succeeded, or gave up; its next failure starts afresh. */
    void forget(T item);

    /** How many times {@code item} has been retried since it was last forgotten. */
    int numRequeues(T item);
}
