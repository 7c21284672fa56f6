package io.kubelix.runtime.audit;

import io.kubelix.runtime.metrics.AuditMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * kube's buffered backend ({@code plugin/pkg/audit/buffered}, the {@code batch} mode): events
 * are queued, never blocking a request, and one thread hands them to the delegate in batches of at
 * most {@code maxBatchSize}, at least every {@code maxBatchWait}, at most {@code throttleQPS}
 * batches a second when throttled. An event that finds the queue full is dropped and counted as an
 * error of the {@code buffered} plugin.
 */
public final class BufferedBackend implements AuditBackend {
    static final String PLUGIN = "buffered";
    private static final Logger LOG = LoggerFactory.getLogger(BufferedBackend.class);
    private static final Event STOP = new Event(Level.None, "", Stage.Panic, "", "", null, null, List.of(), "", null,
            null, null, null, java.time.Instant.EPOCH, java.time.Instant.EPOCH, java.util.Map.of());

    /**
     * BatchConfig.
     *
     * @param bufferSize     events queued before new ones are dropped
     * @param maxBatchSize   the most events handed over at once
     * @param maxBatchWait   the longest an event waits for its batch to fill
     * @param throttleQPS    batches a second at most, or 0 for no throttle
     * @param throttleBurst  batches sent at once after a quiet time
     * @param asyncDelegate  whether batches are handed over on threads of their own (the webhook), so
     *                       a slow one does not hold up collecting the next
     */
    public record BatchConfig(int bufferSize, int maxBatchSize, Duration maxBatchWait, double throttleQPS,
                              int throttleBurst, boolean asyncDelegate) {
    }

    private final AuditBackend delegate;
    private final BatchConfig config;
    private final AuditMetrics metrics;
    private final BlockingQueue<Event> buffer;
    private final Thread collector;
    private final ExecutorService senders;
    private volatile boolean stopped;
    private double tokens;
    private long lastRefill = System.nanoTime();

    public BufferedBackend(AuditBackend delegate, BatchConfig config, AuditMetrics metrics, String name) {
        this.delegate = delegate;
        this.config = config;
        this.metrics = metrics;
        this.buffer = new ArrayBlockingQueue<>(config.bufferSize());
        this.tokens = config.throttleBurst();
        this.senders = config.asyncDelegate() ? Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "kubelix-audit-" + name + "-send");
            t.setDaemon(true);
            return t;
        }) : null;
        this.collector = new Thread(this::run, "kubelix-audit-" + name + "-batch");
        collector.setDaemon(true);
        collector.start();
    }

    @Override
    public boolean processEvents(List<Event> events) {
        for (int i = 0; i < events.size(); i++) {
            if (stopped || !buffer.offer(events.get(i))) {
                metrics.pluginError(PLUGIN, stopped ? "audit backend shut down" : "audit buffer queue blocked",
                        events.subList(i, events.size()), EventFormat::legacyString);
                return true;
            }
        }
        return true;
    }

    private void run() {
        try {
            while (true) {
                List<Event> batch = collect();
                boolean last = !batch.isEmpty() && batch.get(batch.size() - 1) == STOP;
                if (last) {
                    batch.remove(batch.size() - 1);
                }
                if (!batch.isEmpty()) {
                    send(batch);
                }
                if (last) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Events until the batch is full, maxBatchWait has passed since its first, or the backend stops. */
    private List<Event> collect() throws InterruptedException {
        List<Event> batch = new ArrayList<>(Math.min(config.maxBatchSize(), 64));
        Event first = buffer.take();
        batch.add(first);
        if (first == STOP) {
            return batch;
        }
        long deadline = System.nanoTime() + config.maxBatchWait().toNanos();
        while (batch.size() < config.maxBatchSize()) {
            long left = deadline - System.nanoTime();
            Event ev = left <= 0 ? buffer.poll() : buffer.poll(left, TimeUnit.NANOSECONDS);
            if (ev == null) {
                break;
            }
            batch.add(ev);
            if (ev == STOP) {
                break;
            }
        }
        return batch;
    }

    private void send(List<Event> batch) throws InterruptedException {
        throttle();
        if (senders != null) {
            senders.execute(() -> deliver(batch));
        } else {
            deliver(batch);
        }
    }

    private void deliver(List<Event> batch) {
        try {
            delegate.processEvents(batch);
        } catch (RuntimeException e) {
            LOG.error("audit backend {} failed: {}", delegate, e.toString(), e);
        }
    }

    /** A token bucket of throttleBurst batches, refilled at throttleQPS. */
    private void throttle() throws InterruptedException {
        if (config.throttleQPS() <= 0) {
            return;
        }
        long now = System.nanoTime();
        tokens = Math.min(config.throttleBurst(), tokens + (now - lastRefill) / 1e9 * config.throttleQPS());
        lastRefill = now;
        if (tokens < 1) {
            long waitNanos = (long) ((1 - tokens) / config.throttleQPS() * 1e9);
            TimeUnit.NANOSECONDS.sleep(waitNanos);
            tokens = 1;
            lastRefill = System.nanoTime();
        }
        tokens -= 1;
    }

    /** Sends what is queued, waits for the batches in flight (at most 30 s), then stops the delegate. */
    @Override
    public void shutdown() {
        if (stopped) {
            return;
        }
        stopped = true;
        try {
            buffer.put(STOP);
            collector.join(30_000);
            if (senders != null) {
                senders.shutdown();
                senders.awaitTermination(30, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        delegate.shutdown();
    }

    @Override
    public String toString() {
        return "buffered<" + delegate + ">";
    }
}
