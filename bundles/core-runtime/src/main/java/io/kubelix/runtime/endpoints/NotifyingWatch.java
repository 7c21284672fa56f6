package io.kubelix.runtime.endpoints;

import io.kubelix.api.storage.Watch;
import io.kubelix.api.storage.WatchEvent;

import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A watch that cannot notify (an uncached storage's) made into one that can, so every watch is
 * streamed the same way: a thread of {@code executor} waits on it for as long as it is open and
 * hands its events over through a small queue, which holds the thread back when the client reads
 * slower than the storage writes.
 */
final class NotifyingWatch implements Watch {
    private static final Duration POLL = Duration.ofSeconds(1);
    private static final int QUEUE = 256;

    private final Watch watch;
    private final BlockingQueue<WatchEvent> queue = new ArrayBlockingQueue<>(QUEUE);
    private final AtomicReference<Runnable> ready = new AtomicReference<>();
    private volatile boolean ended;
    private volatile boolean closed;

    NotifyingWatch(Watch watch, Executor executor) {
        this.watch = watch;
        executor.execute(this::run);
    }

    private void run() {
        try {
            while (!closed) {
                WatchEvent ev = watch.next(POLL);
                if (ev == null) {
                    if (watch.done()) {
                        return;
                    }
                    continue;
                }
                while (!closed && !queue.offer(ev, POLL.toMillis(), TimeUnit.MILLISECONDS)) {
                    // the client is behind: wait for it, without holding events it may never read
                }
                fire();
                if (ev.type() == WatchEvent.Type.ERROR) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            ended = true;
            fire();
        }
    }

    private void fire() {
        Runnable r = ready.getAndSet(null);
        if (r != null) {
            r.run();
        }
    }

    @Override
    public WatchEvent next(Duration timeout) throws InterruptedException {
        return queue.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    @Override
    public WatchEvent poll() {
        return queue.poll();
    }

    @Override
    public boolean done() {
        return ended && queue.isEmpty();
    }

    @Override
    public boolean onReady(Runnable listener) {
        ready.set(listener);
        if (!queue.isEmpty() || ended) {
            fire();
        }
        return true;
    }

    @Override
    public void close() {
        closed = true;
        watch.close();
    }
}
