package io.kubelix.runtime.metrics;

import io.kubelix.runtime.storage.StorageFactory;
import io.kubelix.runtime.storage.cacher.Cacher;
import io.kubelix.runtime.storage.cacher.CacherStats;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.Collector;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;

import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.ToDoubleFunction;

/**
 * kube-apiserver's storage and watch cache metrics, read from each resource's watch cache when
 * scraped: {@code apiserver_storage_objects} (the objects the cache holds, which follows every
 * acknowledged write), {@code apiserver_watch_cache_events_received_total},
 * {@code apiserver_watch_cache_events_dispatched_total} (each event is dispatched once, to every
 * watcher it concerns), {@code apiserver_watch_cache_resource_version}, {@code watch_cache_capacity},
 * {@code apiserver_terminated_watchers_total} and {@code kubelix_watch_cache_watchers} (open watches
 * the cache serves), each labelled with the resource as kube names it ({@code deployments.apps}).
 */
@Component(immediate = true, service = {})
public final class StorageMetrics {
    private final ServerMetrics metrics;
    private final List<Collector> collectors;

    @Activate
    public StorageMetrics(@Reference ServerMetrics metrics, @Reference StorageFactory storage) {
        this.metrics = metrics;
        this.collectors = List.of(
                gauge(storage, "apiserver_storage_objects",
                        "Number of stored objects at the time of last check split by kind. In case of a fetching error, the value will be -1.",
                        CacherStats::objects),
                counter(storage, "apiserver_watch_cache_events_received",
                        "Counter of events received in watch cache broken by resource type.", CacherStats::events),
                counter(storage, "apiserver_watch_cache_events_dispatched",
                        "Counter of events dispatched in watch cache broken by resource type.", CacherStats::events),
                gauge(storage, "apiserver_watch_cache_resource_version",
                        "Current resource version of watch cache broken by resource type.", CacherStats::resourceVersion),
                gauge(storage, "watch_cache_capacity", "Total capacity of watch cache broken by resource type.",
                        CacherStats::windowCapacity),
                counter(storage, "apiserver_terminated_watchers",
                        "Counter of watchers closed due to unresponsiveness broken by resource type.",
                        CacherStats::slowWatchersTerminated),
                gauge(storage, "kubelix_watch_cache_watchers", "Watchers the watch cache serves, by resource.",
                        CacherStats::watchers));
        collectors.forEach(metrics::register);
    }

    @Deactivate
    void deactivate() {
        collectors.forEach(metrics::unregister);
    }

    private static Collector gauge(StorageFactory storage, String name, String help, ToDoubleFunction<CacherStats> value) {
        return GaugeWithCallback.builder().name(name).help(help).labelNames("resource")
                .callback(cb -> each(storage, (resource, stats) -> cb.call(value.applyAsDouble(stats), resource)))
                .build();
    }

    private static Collector counter(StorageFactory storage, String name, String help, ToDoubleFunction<CacherStats> value) {
        return CounterWithCallback.builder().name(name).help(help).labelNames("resource")
                .callback(cb -> each(storage, (resource, stats) -> cb.call(value.applyAsDouble(stats), resource)))
                .build();
    }

    /** Each resource's watch cache once (resources sharing one storage, such as events in two groups, share a cache). */
    private static void each(StorageFactory storage, BiConsumer<String, CacherStats> action) {
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (Cacher c : storage.cachers()) {
            String resource = c.groupResource().toString();
            if (seen.add(resource)) {
                action.accept(resource, c.stats());
            }
        }
    }
}
