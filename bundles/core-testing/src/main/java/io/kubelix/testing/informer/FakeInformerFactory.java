package io.kubelix.testing.informer;

import io.kubelix.api.informer.RESTMapping;
import io.kubelix.api.informer.RateLimiter;
import io.kubelix.api.informer.RateLimitingQueue;
import io.kubelix.api.informer.Reconciler;
import io.kubelix.api.informer.SharedIndexInformer;
import io.kubelix.api.informer.SharedInformerFactory;
import io.kubelix.api.informer.Workers;
import io.kubelix.api.schema.GroupVersionKind;
import io.kubelix.api.schema.GroupVersionResource;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A factory of {@link FakeInformer}s, one per resource, whose queues only record the keys added and
 * whose workers never run: a test fills the informers, calls the controller's sync itself and sees
 * what its handlers queued.
 */
public final class FakeInformerFactory implements SharedInformerFactory {
    private final Map<GroupVersionResource, FakeInformer> informers = new ConcurrentHashMap<>();
    /** Every key added to any queue of this factory, in order. */
    public final List<Object> queued = new CopyOnWriteArrayList<>();

    @Override
    public FakeInformer forResource(GroupVersionResource resource) {
        return informers.computeIfAbsent(resource, FakeInformer::new);
    }

    @Override
    public boolean waitForCacheSync(Duration timeout, GroupVersionResource... resources) {
        return true;
    }

    @Override
    public Optional<RESTMapping> mappingFor(GroupVersionKind kind) {
        return Optional.empty();
    }

    @Override
    public <T> RateLimitingQueue<T> newRateLimitingQueue(String name) {
        return new RateLimitingQueue<>() {
            @Override
            public void add(T item) {
                queued.add(item);
            }

            @Override
            public void addAfter(T item, Duration delay) {
                queued.add(item);
            }

            @Override
            public void addRateLimited(T item) {
                queued.add(item);
            }

            @Override
            public void forget(T item) {
            }

            @Override
            public int numRequeues(T item) {
                return 0;
            }

            @Override
            public T get() {
                throw new UnsupportedOperationException("the test syncs itself");
            }

            @Override
            public void done(T item) {
            }

            @Override
            public int len() {
                return 0;
            }

            @Override
            public void shutDown() {
            }

            @Override
            public void shutDownWithDrain() {
            }

            @Override
            public boolean shuttingDown() {
                return false;
            }
        };
    }

    @Override
    public <T> RateLimitingQueue<T> newRateLimitingQueue(String name, RateLimiter<T> rateLimiter) {
        return newRateLimitingQueue(name);
    }

    @Override
    public <T> Workers runWorkers(String name, RateLimitingQueue<T> queue, int workers, Reconciler<T> reconciler) {
        return () -> { };
    }
}
