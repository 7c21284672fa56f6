package io.kubelix.support.storage;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.metrics.Counter;
import io.kubelix.api.metrics.Histogram;
import io.kubelix.api.metrics.MetricsRegistry;
import io.kubelix.api.storage.GetOptions;
import io.kubelix.api.storage.ListOptions;
import io.kubelix.api.storage.ListResult;
import io.kubelix.api.storage.Preconditions;
import io.kubelix.api.storage.StorageInterface;
import io.kubelix.api.storage.UpdateFunction;
import io.kubelix.api.storage.ValidateObjectFunction;
import io.kubelix.api.storage.Versioner;
import io.kubelix.api.storage.Watch;

import java.util.List;
import java.util.function.Supplier;

/**
 * A backend's storage of one resource, timed as kube-apiserver's etcd3 store times its requests:
 * {@code <prefix>_request_duration_seconds}, {@code <prefix>_requests_total} and
 * {@code <prefix>_request_errors_total}, labelled with the operation ({@code create}, {@code get},
 * {@code list}, {@code update}, {@code delete}, {@code count}) and the resource ({@code type},
 * {@code deployments.apps}). Watches are not requests and are not timed. An update's time includes
 * its retries on conflict.
 */
public final class MeasuredStorage implements StorageInterface {
    /** kube's buckets for etcd_request_duration_seconds, the same as apiserver_request_duration_seconds'. */
    private static final List<Double> BUCKETS = List.of(0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5,
            2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 15.0, 20.0, 30.0, 45.0, 60.0);

    /** One backend's request metrics, made once per backend. */
    public record Metrics(Histogram duration, Counter requests, Counter errors) {
        /** The metrics named {@code prefix_request_duration_seconds}, ... (prefix {@code etcd} for kube's names). */
        public static Metrics register(MetricsRegistry registry, String prefix, String backend) {
            List<String> labels = List.of("operation", "type");
            return new Metrics(
                    registry.histogram(prefix + "_request_duration_seconds",
                            backend + " request latency in seconds for each operation and object type.", BUCKETS, labels),
                    registry.counter(prefix + "_requests", backend + " request counts for each operation and object type.",
                            labels),
                    registry.counter(prefix + "_request_errors",
                            backend + " failed request counts for each operation and object type.", labels));
        }
    }

    private final StorageInterface storage;
    private final Metrics metrics;
    private final String type;

    /** @param type the resource, as kube names it ({@code GroupResource.toString()}) */
    public MeasuredStorage(StorageInterface storage, Metrics metrics, String type) {
        this.storage = storage;
        this.metrics = metrics;
        this.type = type;
    }

    private <T> T timed(String operation, Supplier<T> call) {
        long begin = System.nanoTime();
        boolean failed = true;
        try {
            T result = call.get();
            failed = false;
            return result;
        } finally {
            metrics.duration().observe((System.nanoTime() - begin) / 1e9, operation, type);
            metrics.requests().inc(operation, type);
            if (failed) {
                metrics.errors().inc(operation, type);
            }
        }
    }

    @Override
    public Versioner versioner() {
        return storage.versioner();
    }

    @Override
    public ObjectNode create(String key, ObjectNode obj) {
        return timed("create", () -> storage.create(key, obj));
    }

    @Override
    public ObjectNode delete(String key, Preconditions preconditions, ValidateObjectFunction validateDeletion) {
        return timed("delete", () -> storage.delete(key, preconditions, validateDeletion));
    }

    @Override
    public ObjectNode delete(String key, Preconditions preconditions, ValidateObjectFunction validateDeletion,
                             ObjectNode cachedExisting) {
        return timed("delete", () -> storage.delete(key, preconditions, validateDeletion, cachedExisting));
    }

    @Override
    public Watch watch(String key, ListOptions opts) {
        return storage.watch(key, opts);
    }

    @Override
    public ObjectNode get(String key, GetOptions opts) {
        return timed("get", () -> storage.get(key, opts));
    }

    @Override
    public ListResult getList(String key, ListOptions opts) {
        return timed("list", () -> storage.getList(key, opts));
    }

    @Override
    public ObjectNode guaranteedUpdate(String key, boolean ignoreNotFound, Preconditions preconditions,
                                      UpdateFunction tryUpdate) {
        return timed("update", () -> storage.guaranteedUpdate(key, ignoreNotFound, preconditions, tryUpdate));
    }

    @Override
    public ObjectNode guaranteedUpdate(String key, boolean ignoreNotFound, Preconditions preconditions,
                                      UpdateFunction tryUpdate, ObjectNode cachedExisting) {
        return timed("update", () -> storage.guaranteedUpdate(key, ignoreNotFound, preconditions, tryUpdate,
                cachedExisting));
    }

    @Override
    public long count(String key) {
        return timed("count", () -> storage.count(key));
    }

    @Override
    public long currentResourceVersion() {
        return storage.currentResourceVersion();
    }
}
