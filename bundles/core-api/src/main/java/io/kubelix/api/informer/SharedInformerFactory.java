package io.kubelix.api.informer;

import io.kubelix.api.schema.GroupVersionKind;
import io.kubelix.api.schema.GroupVersionResource;
import org.osgi.annotation.versioning.ProviderType;

import java.util.Optional;
import java.time.Duration;

/**
 * Hands out the server's informers (client-go's {@code SharedInformerFactory}), registered as an
 * OSGi service by core-runtime. There is one informer per group, version and resource in the
 * server, shared by every bundle that asks; it starts on the first request and runs until the
 * server stops, across updates of the resource's plugin and of the consumers' bundles.
 *
 * <p>Each bundle gets its own view of the factory (the service is bundle-scoped): when the bundle
 * releases the service (it stops or is updated), every handler it added is removed, so a stopping
 * plugin's code is never called again. A resource that is not (yet) served has an informer all the
 * same; it syncs once the resource is served.
 */
@ProviderType
public interface SharedInformerFactory {

    /** The informer of a resource (not a subresource), started if it is new. */
    SharedIndexInformer forResource(GroupVersionResource resource);

    /**
     * Waits until the informers of every given resource have synced, or the timeout passes.
     *
     * @return whether all of them have synced
     */
    boolean waitForCacheSync(Duration timeout, GroupVersionResource... resources) throws InterruptedException;

    /**
     * The resource serving {@code kind} now (a RESTMapper's mapping), as a client finds it in
     * discovery; empty when no served resource has that kind in that group and version.
     */
    Optional<RESTMapping> mappingFor(GroupVersionKind kind);

    /**
     * A work queue with the default controller rate limiter (client-go's
     * {@code DefaultControllerRateLimiter}): per item, an exponential back-off from 5 ms doubling
     * up to 1000 s, and overall a token bucket of 10 adds per second with a burst of 100; an item
     * waits for the longer of the two. Its name appears in the log.
     */
    <T> RateLimitingQueue<T> newRateLimitingQueue(String name);

    /** A work queue whose rate-limited adds wait as {@code rateLimiter} says. */
    <T> RateLimitingQueue<T> newRateLimitingQueue(String name, RateLimiter<T> rateLimiter);

    /**
     * Starts {@code workers} threads reconciling the keys of {@code queue} (a queue of this factory)
     * with {@code reconciler}, as kube-controller-manager's workers do ({@code processNextWorkItem});
     * see {@link Workers}. The workers are stopped ({@link Workers#stop()}: queue drained, threads
     * joined) when the bundle releases this service, if the controller has not stopped them itself.
     */
    <T> Workers runWorkers(String name, RateLimitingQueue<T> queue, int workers, Reconciler<T> reconciler);
}
