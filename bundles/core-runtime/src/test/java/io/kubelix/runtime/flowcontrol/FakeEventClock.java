package io.kubelix.runtime.flowcontrol;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** An {@link EventClock} that moves only when told to, running what falls due on the caller's thread. */
final class FakeEventClock implements EventClock {
    private record Task(long due, long order, Runnable run) {
    }

    private long now = 1_000_000_000L;
    private long scheduled;
    private final List<Task> tasks = new ArrayList<>();

    @Override
    public synchronized long nanoTime() {
        return now;
    }

    @Override
    public synchronized Runnable schedule(Runnable task, Duration delay) {
        Task t = new Task(now + delay.toNanos(), scheduled++, task);
        tasks.add(t);
        return () -> {
            synchronized (this) {
                tasks.remove(t);
            }
        };
    }

    /** Moves the time on, running each task that falls due in its turn. */
    void advance(Duration d) {
        long until;
        synchronized (this) {
            until = now + d.toNanos();
        }
        while (true) {
            Task next;
            synchronized (this) {
                next = tasks.stream().filter(t -> t.due() <= until)
                        .min(Comparator.comparingLong(Task::due).thenComparingLong(Task::order)).orElse(null);
                if (next == null) {
                    now = until;
                    return;
                }
                tasks.remove(next);
                now = Math.max(now, next.due());
            }
            next.run().run();
        }
    }

    synchronized int pending() {
        return tasks.size();
    }
}
