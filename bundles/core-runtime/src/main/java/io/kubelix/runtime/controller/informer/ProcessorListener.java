package io.kubelix.runtime.controller.informer;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.informer.ResourceEventHandler;
import io.kubelix.api.schema.GroupVersionResource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * One handler of an informer (client-go's {@code processorListener}): its notifications wait in a
 * queue of its own and are delivered in order, one at a time, by a task on the informer's
 * handler threads, so one slow handler never holds up another, nor the informer.
 */
final class ProcessorListener {
    private static final Logger LOG = LoggerFactory.getLogger(ProcessorListener.class);

    private enum Kind { ADD, UPDATE, DELETE, SYNCED }

    private record Notification(Kind kind, ObjectNode oldObj, ObjectNode obj, boolean initial) {
    }

    private final GroupVersionResource resource;
    private final ResourceEventHandler handler;
    private final Duration resyncPeriod;
    private final Executor executor;
    private final ArrayDeque<Notification> pending = new ArrayDeque<>();
    private boolean scheduled;
    /** Notifications queued, and those delivered (or dropped on close), since the listener was made. */
    private long queued;
    private long delivered;
    private boolean closed;
    private boolean synced;
    /** Whether the informer has queued the end of this handler's initial objects. */
    private boolean syncQueued;

    ProcessorListener(GroupVersionResource resource, ResourceEventHandler handler, Duration resyncPeriod,
                      Executor executor) {
        this.resource = resource;
        this.handler = handler;
        this.resyncPeriod = resyncPeriod;
        this.executor = executor;
    }

    Duration resyncPeriod() {
        return resyncPeriod;
    }

    void add(ObjectNode obj, boolean initial) {
        enqueue(new Notification(Kind.ADD, null, obj, initial));
    }

    void update(ObjectNode oldObj, ObjectNode obj) {
        enqueue(new Notification(Kind.UPDATE, oldObj, obj, false));
    }

    void delete(ObjectNode obj) {
        enqueue(new Notification(Kind.DELETE, null, obj, false));
    }

    /** Queues the end of the initial objects, once: the handler has synced when it is reached. */
    synchronized void initialListQueued() {
        if (!syncQueued) {
            syncQueued = true;
            enqueue(new Notification(Kind.SYNCED, null, null, false));
        }
    }

    synchronized boolean hasSynced() {
        return synced;
    }

    /** Waits for {@link #hasSynced()}, at most {@code timeout}; false when closed or timed out. */
    synchronized boolean waitForSync(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!synced && !closed) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return synced;
    }

    /**
     * Waits until the handler has been told of everything queued to it before this call (or the
     * listener was closed), until {@code deadline} (System.nanoTime()); false when it passed first.
     */
    synchronized boolean awaitDelivered(long deadline) throws InterruptedException {
        long target = queued;
        while (delivered < target && !closed) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return true;
    }

    /** Drops what is pending; nothing is delivered after this returns but a notification already running. */
    synchronized void close() {
        closed = true;
        pending.clear();
        notifyAll();
    }

    private synchronized void enqueue(Notification n) {
        if (closed) {
            return;
        }
        queued++;
        pending.add(n);
        if (!scheduled) {
            scheduled = true;
            try {
                executor.execute(this::drain);
            } catch (RejectedExecutionException e) {
                scheduled = false;
            }
        }
    }

    private void drain() {
        boolean deliveredOne = false;
        while (true) {
            Notification n;
            synchronized (this) {
                if (deliveredOne) {
                    delivered++;
                    notifyAll();
                }
                n = closed ? null : pending.poll();
                if (n == null) {
                    scheduled = false;
                    return;
                }
                if (n.kind == Kind.SYNCED) {
                    synced = true;
                    delivered++;
                    notifyAll();
                    deliveredOne = false;
                    continue;
                }
            }
            deliver(n);
            deliveredOne = true;
        }
    }

    private void deliver(Notification n) {
        try {
            switch (n.kind) {
                case ADD -> handler.onAdd(n.obj, n.initial);
                case UPDATE -> handler.onUpdate(n.oldObj, n.obj);
                case DELETE -> handler.onDelete(n.obj);
                default -> throw new IllegalStateException(n.kind.toString());
            }
        } catch (RuntimeException | LinkageError e) {
            LOG.warn("informer {}: handler {} failed on {} of {}: {}", Reflector.describe(resource), handler.getClass().getName(),
                    n.kind, Informer.keyOf(n.obj), e.toString(), e);
        }
    }
}
