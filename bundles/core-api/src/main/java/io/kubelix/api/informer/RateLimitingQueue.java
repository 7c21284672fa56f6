package io.kubelix.api.informer;

import org.osgi.annotation.versioning.ProviderType;

import java.time.Duration;

/**
 * A work queue with delays and rate limits (client-go's {@code workqueue.RateLimitingInterface}).
 *
 * <h2>Queue</h2>
 * Items (usually keys, see {@link SharedIndexInformer#keyOf}) are handed out in the order they
 * were added, and each at most once at a time:
 * <ul>
 *   <li>An item added while it waits in the queue is not added twice.</li>
 *   <li>An item {@link #get()} handed out is being processed until {@link #done} is called with it.
 *       Meanwhile no other worker gets it; if it is added again during that time, it is queued
 *       again when {@code done} is called, so the change that caused the add is not lost.</li>
 * </ul>
 *
 * <h2>Delays and rate limits</h2>
 * {@link #addAfter} adds an item once a delay has passed (an earlier pending delay of the same item
 * wins). {@link #addRateLimited} adds it after the delay its rate limiter gives, which grows with
 * each failure of the item until {@link #forget} is called with it. A worker calls
 * {@code addRateLimited} when processing failed and {@code forget} when it succeeded.
 *
 * <h2>Shutdown</h2>
 * After {@link #shutDown()}, adds are ignored, {@link #get()} hands out what is still queued and
 * then returns null, which tells workers to end. {@link #shutDownWithDrain()} also waits until
 * every item being processed is done.
 */
@ProviderType
public interface RateLimitingQueue<T> {

    /** Queues {@code item} unless it is queued already; ignored after shutdown. */
    void add(T item);

    /** Queues {@code item} once {@code delay} has passed; a zero or negative delay adds it at once. */
    void addAfter(T item, Duration delay);

    /** Queues {@code item} after the delay the rate limiter gives it now (counting one more failure). */
    void addRateLimited(T item);

    /** Tells the rate limiter to stop tracking {@code item} (it succeeded); does not take it off the queue. */
    void forget(T item);

    /** How many times {@code item} has been rate-limited since it was last forgotten. */
    int numRequeues(T item);

    /**
     * Waits for an item and marks it as being processed.
     *
     * @return the item, or null once the queue is shut down and empty
     */
    T get() throws InterruptedException;

    /** Marks {@code item} as processed; queues it again if it was added meanwhile. */
    void done(T item);

    /** The number of items queued and ready (not those waiting for a delay, nor those being processed). */
    int len();

    /** Stops taking items; workers get what is queued, then null. */
    void shutDown();

    /** {@link #shutDown()}, then waits until every item being processed is {@linkplain #done done}. */
    void shutDownWithDrain() throws InterruptedException;

    /** Whether {@link #shutDown()} was called. */
    boolean shuttingDown();
}
