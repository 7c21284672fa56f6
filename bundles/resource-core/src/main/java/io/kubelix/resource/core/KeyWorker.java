package io.kubelix.resource.core;

import io.kubelix.api.errors.StatusException;
import io.kubelix.api.informer.RateLimitingQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.function.Consumer;

/**
 * The worker of one of this plugin's controllers, as kube-controller-manager runs them
 * ({@code processNextWorkItem}): it takes a key, syncs it, and on success forgets its failures; a
 * sync that throws puts the key back rate-limited (storage not there yet, or unreachable, is a
 * StatusException and logged briefly). {@link #stop()} lets a running sync finish and ends the thread.
 */
final class KeyWorker {
    private static final Logger LOG = LoggerFactory.getLogger(KeyWorker.class);

    private final String what;
    private final RateLimitingQueue<String> queue;
    private final Consumer<String> sync;
    private final Thread thread;

    /**
     * @param thread the thread's name
     * @param what   what a key is, for the log ({@code resource quota})
     */
    KeyWorker(String thread, String what, RateLimitingQueue<String> queue, Consumer<String> sync) {
        this.what = what;
        this.queue = queue;
        this.sync = sync;
        this.thread = new Thread(this::work, thread);
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    void stop() {
        try {
            queue.shutDownWithDrain();
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void work() {
        while (true) {
            String key;
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
            } catch (StatusException e) {
                LOG.info("{} {}: {}; retrying", what, key, e.getMessage());
                queue.addRateLimited(key);
            } catch (RuntimeException e) {
                LOG.warn("{} {}: {}", what, key, e.toString(), e);
                queue.addRateLimited(key);
            } finally {
                queue.done(key);
            }
        }
    }
}
