package io.kubelix.runtime.endpoints;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Names the watch writer threads and makes them daemons, so they never hold the JVM open. */
final class WatchWriterThreads implements ThreadFactory {
    private final AtomicInteger count = new AtomicInteger();

    @Override
    public Thread newThread(Runnable r) {
        Thread t = new Thread(r, "kubelix-watch-writer-" + count.incrementAndGet());
        t.setDaemon(true);
        return t;
    }
}
