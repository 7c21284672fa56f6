package io.kubelix.runtime.endpoints;

import io.kubelix.api.storage.Watch;
import io.kubelix.api.storage.WatchEvent;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

/** A watch of one ERROR event, then done: what kube's cacher answers a watch it cannot start (newErrWatcher). */
final class ErrorWatch implements Watch {
    private final AtomicReference<WatchEvent> event;

    ErrorWatch(WatchEvent error) {
        this.event = new AtomicReference<>(error);
    }

    @Override
    public WatchEvent next(Duration timeout) {
        return event.getAndSet(null);
    }

    @Override
    public boolean done() {
        return event.get() == null;
    }

    @Override
    public boolean onReady(Runnable listener) {
        listener.run();
        return true;
    }

    @Override
    public void close() {
        event.set(null);
    }
}
