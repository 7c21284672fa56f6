package io.kubelix.runtime.server;

import org.osgi.framework.Constants;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The whiteboard collection of one kind of service, ordered as OSGi orders services: highest
 * {@code service.ranking} first, then lowest {@code service.id}. Readers get an immutable
 * snapshot that is swapped atomically when a service comes or goes, so a request sees either
 * the old set or the new one, never a half-changed one.
 *
 * <p>With {@link PluginSwaps}, a service whose bundle is being updated keeps its place until its
 * replacement arrives: readers wait meanwhile (at most the swap grace period) and then see the new
 * set, so during a plugin update a request is served with the old service or the new one, never
 * with neither. Readers do not use the outgoing service itself: its bundle's class loader may be
 * discarded by the refresh that follows an update. The exception is a request that runs on a
 * storage of the bundle being updated ({@link PluginSwaps#hold}): the update waits for that
 * request before the bundle's classes can go, and the new revision cannot come before, so it
 * uses the outgoing services of its own bundle instead of waiting for them.
 */
public final class RankedServices<T> implements Supplier<List<T>> {
    private static final class Entry<T> {
        final T service;
        final Map<String, ?> properties;
        final int ranking;
        final long id;
        boolean outgoing;
        /** When it went outgoing ({@link System#nanoTime()}). */
        long outgoingSince;

        Entry(T service, Map<String, ?> properties) {
            this.service = service;
            this.properties = Map.copyOf(properties);
            this.ranking = ranking(properties);
            this.id = id(properties);
        }
    }

    /** Highest ranking first (compared, not negated: -Integer.MIN_VALUE is Integer.MIN_VALUE), then lowest id. */
    private static final Comparator<Entry<?>> ORDER = ((Comparator<Entry<?>>) (a, b) -> Integer.compare(b.ranking, a.ranking))
            .thenComparingLong(e -> e.id);

    /**
     * The services in order, and, while some are being swapped (readers then wait), the entries
     * with the outgoing ones in their places.
     */
    private record Snapshot<T>(List<T> services, boolean swapping, List<Member<T>> members) {
    }

    /** A service in a snapshot taken during a swap, and whether it was outgoing then. */
    private record Member<T>(T service, Map<String, ?> properties, boolean outgoing) {
    }

    private final PluginSwaps swaps;
    private final List<Entry<T>> entries = new ArrayList<>();
    private volatile Snapshot<T> snapshot = new Snapshot<>(List.of(), false, List.of());

    /** A collection whose services leave at once when they go away. */
    public RankedServices() {
        this(PluginSwaps.none());
    }

    public RankedServices(PluginSwaps swaps) {
        this.swaps = swaps;
    }

    public synchronized void add(T service, Map<String, ?> properties) {
        entries.removeIf(e -> {
            if (e.outgoing && PluginSwaps.replaces(properties, e.properties)) {
                swaps.swapped(properties, e.outgoingSince);
                return true;
            }
            return false;
        });
        entries.add(new Entry<>(service, properties));
        publish();
    }

    /** Removes a service with no properties to go by: at once. */
    public synchronized void remove(T service) {
        entries.removeIf(e -> e.service == service);
        publish();
    }

    /**
     * Removes a service that went away: at once, or, when its bundle is being updated, when its
     * replacement arrives or the grace period ends (readers wait meanwhile). Returns whether it is
     * being swapped.
     */
    public synchronized boolean remove(T service, Map<String, ?> properties) {
        Entry<T> entry = entries.stream().filter(e -> e.service == service).findFirst().orElse(null);
        if (entry == null) {
            return false;
        }
        if (swaps.restarting(properties)) {
            entry.outgoing = true;
            entry.outgoingSince = System.nanoTime();
            publish();
            swaps.afterGrace(() -> expire(entry));
            return true;
        }
        entries.remove(entry);
        publish();
        return false;
    }

    private synchronized void expire(Entry<T> entry) {
        if (entries.remove(entry)) {
            publish();
        }
    }

    /** The current services; while one is being swapped, waits for its replacement first. */
    @Override
    public List<T> get() {
        Snapshot<T> s = snapshot;
        if (!s.swapping()) {
            return s.services();
        }
        List<T> held = withHeldOutgoing(s);
        return held != null ? held : awaitSwap();
    }

    /**
     * The services with the outgoing ones in place when every outgoing service belongs to the
     * bundle the current request holds; otherwise null.
     */
    private static <T> List<T> withHeldOutgoing(Snapshot<T> s) {
        List<T> services = new ArrayList<>(s.members().size());
        for (Member<T> m : s.members()) {
            if (m.outgoing() && !PluginSwaps.held(m.properties())) {
                return null;
            }
            services.add(m.service());
        }
        return services;
    }

    private synchronized List<T> awaitSwap() {
        long deadline = System.nanoTime() + swaps.grace().toNanos();
        try {
            while (snapshot.swapping()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                wait(Math.max(1, left / 1_000_000));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return snapshot.services();
    }

    public static int ranking(Map<String, ?> properties) {
        return properties.get(Constants.SERVICE_RANKING) instanceof Integer i ? i : 0;
    }

    public static long id(Map<String, ?> properties) {
        return properties.get(Constants.SERVICE_ID) instanceof Long l ? l : Long.MAX_VALUE;
    }

    private void publish() {
        entries.sort(ORDER);
        boolean swapping = entries.stream().anyMatch(e -> e.outgoing);
        snapshot = new Snapshot<>(entries.stream().filter(e -> !e.outgoing).map(e -> e.service).toList(),
                swapping, swapping ? entries.stream().map(e -> new Member<>(e.service, e.properties, e.outgoing)).toList()
                        : List.of());
        notifyAll();
    }
}
