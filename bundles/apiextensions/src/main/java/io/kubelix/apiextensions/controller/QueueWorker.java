package io.kubelix.apiextensions.controller;

import io.kubelix.api.informer.RateLimitingQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.function.Consumer;

/**
 * One worker thread draining a controller's queue, as client-go's processNextWorkItem: each key is
 * synced; a sync that throws is retried with the queue's back-off, one that succeeds is forgotten.
 * The first failure of a key is a warning, its retries are logged at debug.
 */
public final class QueueWorker<T> {
    private static final Logger LOG = LoggerFactory.getLogger(QueueWorker.class);

    private final String name;
    private final RateLimitingQueue<T> queue;
    private final Consumer<T> sync;
    private final Thread thread;

    public QueueWorker(String name, RateLimitingQueue<T> queue, Consumer<T> sync) {
        this.name = name;
        this.queue = queue;
        this.sync = sync;
        this.thread = new Thread(this::run, "kubelix-" + name);
        thread.setDaemon(true);
    }

    public QueueWorker<T> start() {
        thread.start();
        return this;
    }

    public RateLimitingQueue<T> queue() {
        return queue;
    }

    /** Stops taking keys and waits for the one being synced. */
    public void stop() {
        queue.shutDown();
        thread.interrupt();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
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
                sync.accept(key);
                queue.forget(key);
            } catch (RuntimeException e) {
                if (queue.numRequeues(key) == 0) {
                    LOG.warn("{}: syncing {} failed, will retry: {}", name, key, e.toString());
                } else {
                    LOG.debug("{}: syncing {} failed again (retry {}): {}", name, key, queue.numRequeues(key), e.toString());
                }
                queue.addRateLimited(key);
            } finally {
                queue.done(key);
            }
        }
    }
}
