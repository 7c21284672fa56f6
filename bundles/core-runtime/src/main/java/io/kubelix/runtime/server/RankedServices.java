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
 */
public final class RankedServices<T> implements Supplier<List<T>> {
    private record Entry<T>(T service, int ranking, long id) {
    }

    private static final Comparator<Entry<?>> ORDER = Comparator.<Entry<?>>comparingInt(e -> -e.ranking())
            .thenComparingLong(Entry::id);

    private final List<Entry<T>> entries = new ArrayList<>();
    private volatile List<T> snapshot = List.of();

    public synchronized void add(T service, Map<String, ?> properties) {
        entries.add(new Entry<>(service, ranking(properties), id(properties)));
        publish();
    }

    public synchronized void remove(T service) {
        entries.removeIf(e -> e.service() == service);
        publish();
    }

    @Override
    public List<T> get() {
        return snapshot;
    }

    public static int ranking(Map<String, ?> properties) {
        return properties.get(Constants.SERVICE_RANKING) instanceof Integer i ? i : 0;
    }

    public static long id(Map<String, ?> properties) {
        return properties.get(Constants.SERVICE_ID) instanceof Long l ? l : Long.MAX_VALUE;
    }

    private void publish() {
        entries.sort(ORDER);
        snapshot = entries.stream().map(Entry::service).toList();
    }
}
