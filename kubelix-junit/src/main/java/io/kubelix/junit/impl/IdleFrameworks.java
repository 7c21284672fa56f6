package io.kubelix.junit.impl;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Frameworks whose server was closed, kept with their Kubelix bundles stopped and their libraries
 * running, for the next server with the same flags: starting the Kubelix bundles again in a
 * framework whose classes are loaded and compiled takes a fraction of a new framework's start
 * (which loads some 5,000 classes afresh, and the JIT compiles them again). The next server is
 * new all the same: new components, an empty memory storage, the same port and data directory.
 * At most {@value #MAX_IDLE} are kept; the oldest beyond that, and all of them when the JVM
 * exits, are stopped.
 */
public final class IdleFrameworks {
    /** A framework holds some 100 MB of classes and heap; a run rarely alternates between more flag sets. */
    static final int MAX_IDLE = 2;

    /** A stopped server's framework, its data directory and its port. */
    public record Idle(Map<String, String> flags, EmbeddedFramework framework, Path directory, int port) {
    }

    // Per JVM on purpose: the classes a framework has loaded are the saving, and they live as long as it.
    private static final Deque<Idle> IDLE = new ArrayDeque<>();
    private static Consumer<Idle> stopper;

    private IdleFrameworks() {
    }

    /** An idle framework of a server with {@code flags}, taken out of the pool; null when none. */
    public static synchronized Idle take(Map<String, String> flags) {
        for (Iterator<Idle> it = IDLE.iterator(); it.hasNext(); ) {
            Idle idle = it.next();
            if (idle.flags().equals(flags)) {
                it.remove();
                return idle;
            }
        }
        return null;
    }

    /**
     * Keeps {@code idle} for the next server with its flags; {@code stop} stops and deletes a
     * framework that leaves the pool unused.
     */
    public static void put(Idle idle, Consumer<Idle> stop) {
        List<Idle> evicted = new ArrayList<>();
        synchronized (IdleFrameworks.class) {
            if (stopper == null) {
                stopper = stop;
                Runtime.getRuntime().addShutdownHook(new Thread(IdleFrameworks::stopAll, "kubelix-junit-idle-stop"));
            }
            IDLE.addFirst(idle);
            while (IDLE.size() > MAX_IDLE) {
                evicted.add(IDLE.removeLast());
            }
        }
        evicted.forEach(stop);
    }

    private static void stopAll() {
        List<Idle> all;
        Consumer<Idle> stop;
        synchronized (IdleFrameworks.class) {
            all = new ArrayList<>(IDLE);
            IDLE.clear();
            stop = stopper;
        }
        all.forEach(stop);
    }
}
