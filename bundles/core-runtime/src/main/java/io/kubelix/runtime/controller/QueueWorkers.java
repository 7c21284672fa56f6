package io.kubelix.runtime.controller;

import io.kubelix.api.errors.StatusException;
import io.kubelix.api.informer.RateLimitingQueue;
import io.kubelix.api.informer.Reconciler;
import io.kubelix.api.informer.Workers;
import io.kubelix.runtime.server.Lifecycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The workers of a controller's queue, as kube-controller-manager runs them
 * ({@code processNextWorkItem}): each takes a key, reconciles it, and on success forgets its
 * failures; a reconcile that throws puts the key back rate-limited. {@link #stop()} shuts the queue
 * down, lets the workers finish what is queued and running, and joins them, so nothing of the
 * controller runs after it returns. The server's controllers use it directly, plugins through
 * {@link io.kubelix.api.informer.SharedInformerFactory#runWorkers}.
 */
public final class QueueWorkers<T> implements Workers {
    private static final Logger LOG = LoggerFactory.getLogger(QueueWorkers.class);

    private final String name;
    private final RateLimitingQueue<T> queue;
    private final Reconciler<T> sync;
    private final List<Thread> threads = new ArrayList<>();
    /** The keys failing now, since when and whether that was warned about. */
    private final Map<T, Streak> streaks = new ConcurrentHashMap<>();

    /** How long a key may fail with a {@link StatusException} before it is worth a warning. */
    static final Duration WARN_AFTER = Duration.ofSeconds(30);

    /** A key's failures since its last success. */
    private static final class Streak {
        final long since;
        volatile boolean warned;

        Streak(long since) {
            this.since = since;
        }
    }

    public QueueWorkers(String name, RateLimitingQueue<T> queue, int workers, Reconciler<T> sync) {
        if (workers < 1) {
            throw new IllegalArgumentException(name + ": at least one worker, not " + workers);
        }
        this.name = name;
        this.queue = queue;
        this.sync = sync;
        for (int i = 0; i < workers; i++) {
            Thread t = new Thread(this::work, "kubelix-" + name + (workers == 1 ? "" : "-" + i));
            t.setDaemon(true);
            threads.add(t);
        }
    }

    public void start() {
        threads.forEach(Thread::start);
    }

    @Override
    public void stop() {
        try {
            queue.shutDownWithDrain();
            for (Thread t : threads) {
                if (t != Thread.currentThread()) {
                    t.join();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void work() {
        while (true) {
            T key;
            try {
                key = queue.get();
            } catch (InterruptedException e) {
                return;
            }
            if (key == null) {
                return;
            }
            try {
                sync.reconcile(key);
                queue.forget(key);
                streaks.remove(key);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (StatusException e) {
                // Expected while storage or a resource is unavailable (the server starts, a plugin is being
                // installed, the server stops): retried at debug level, and the key waits its back-off. A key
                // that still fails after WARN_AFTER is worth a warning, once per streak.
                int failures = queue.numRequeues(key) + 1;
                Streak streak = streaks.computeIfAbsent(key, k -> new Streak(System.nanoTime()));
                if (!streak.warned && System.nanoTime() - streak.since >= WARN_AFTER.toNanos() && !Lifecycle.stopping()) {
                    streak.warned = true;
                    LOG.warn("{}: syncing {} has failed for {} s ({} times): {}; retrying with back-off", name, key,
                            (System.nanoTime() - streak.since) / 1_000_000_000L, failures, e.getMessage());
                } else {
                    LOG.debug("{}: syncing {} failed ({} times): {}", name, key, failures, e.getMessage());
                }
                queue.addRateLimited(key);
            } catch (Exception | LinkageError e) {
                if (Lifecycle.stopping()) {
                    LOG.debug("{}: syncing {} failed while stopping: {}", name, key, e.toString());
                } else {
                    LOG.warn("{}: syncing {} failed ({} times): {}", name, key, queue.numRequeues(key) + 1, e.toString(), e);
                }
                queue.addRateLimited(key);
            } finally {
                queue.done(key);
            }
            if (Thread.currentThread().isInterrupted()) {
                return;
            }
        }
    }
}
