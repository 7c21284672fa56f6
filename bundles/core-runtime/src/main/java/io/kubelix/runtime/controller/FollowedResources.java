package io.kubelix.runtime.controller;

import io.kubelix.api.informer.ResourceEventHandler;
import io.kubelix.api.informer.ResourceEventHandlerRegistration;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.runtime.controller.informer.InformerFactory;

import java.time.Duration;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A handler on the informer of every served resource a controller follows, kept as resources come
 * and go (a plugin installed, updated or removed): one version per storage, however many versions
 * serve it. Used by the controllers that watch everything (the garbage collector, the namespace
 * controller).
 */
public final class FollowedResources {
    private final ServedResources served;
    private final InformerFactory informers;
    private final Predicate<RESTStorage> wanted;
    private final Function<GroupVersionResource, ResourceEventHandler> handler;
    private final Consumer<GroupVersionResource> unfollowed;
    private final Runnable changed;
    private final Map<GroupVersionResource, ResourceEventHandlerRegistration> followed = new HashMap<>();
    private Runnable unsubscribe = () -> { };
    private boolean stopped;

    /**
     * @param wanted     which storages to follow
     * @param handler    the handler for a newly followed resource
     * @param unfollowed told of a resource no longer followed (its handler is already removed)
     * @param changed    told after each change of what is served, once the handlers are in place
     */
    public FollowedResources(ServedResources served, InformerFactory informers, Predicate<RESTStorage> wanted,
                             Function<GroupVersionResource, ResourceEventHandler> handler,
                             Consumer<GroupVersionResource> unfollowed, Runnable changed) {
        this.served = served;
        this.informers = informers;
        this.wanted = wanted;
        this.handler = handler;
        this.unfollowed = unfollowed;
        this.changed = changed;
    }

    /** Follows what is served now, and from now on what comes. */
    public void start() {
        unsubscribe = served.onChange(this::update);
        update();
    }

    /** Removes every handler; nothing is followed afterwards. */
    public void stop() {
        unsubscribe.run();
        synchronized (this) {
            stopped = true;
            followed.values().forEach(ResourceEventHandlerRegistration::close);
            followed.clear();
        }
    }

    /**
     * Waits until the handler of every resource followed now has been told of each change up to
     * revision {@code rv} (see {@link InformerFactory#awaitObserved}), at most {@code timeout};
     * false when it ran out first.
     */
    public boolean awaitObserved(long rv, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<ResourceEventHandlerRegistration> now;
        synchronized (this) {
            now = List.copyOf(followed.values());
        }
        for (ResourceEventHandlerRegistration r : now) {
            if (!informers.awaitObserved(r, rv, deadline)) {
                return false;
            }
        }
        return true;
    }

    /** The resources followed now. */
    public synchronized Set<GroupVersionResource> resources() {
        return Set.copyOf(followed.keySet());
    }

    private void update() {
        synchronized (this) {
            if (stopped) {
                return;
            }
            Map<RESTStorage, GroupVersionResource> now = new IdentityHashMap<>();
            for (GroupVersionResource r : served.resources()) {
                RESTStorage s = served.storage(r);
                if (s != null && wanted.test(s)) {
                    now.putIfAbsent(s, r);
                }
            }
            List<GroupVersionResource> keep = List.copyOf(now.values());
            followed.entrySet().removeIf(e -> {
                if (keep.contains(e.getKey())) {
                    return false;
                }
                e.getValue().close();
                unfollowed.accept(e.getKey());
                return true;
            });
            for (GroupVersionResource r : keep) {
                followed.computeIfAbsent(r, k -> informers.forResource(k).addEventHandler(handler.apply(k)));
            }
        }
        changed.run();
    }
}
