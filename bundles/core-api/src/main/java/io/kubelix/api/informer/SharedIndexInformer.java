package io.kubelix.api.informer;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.schema.GroupVersionResource;
import org.osgi.annotation.versioning.ProviderType;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One resource's objects, kept in an indexed cache and followed as they change (client-go's
 * {@code SharedIndexInformer}), shared by every consumer of the resource in the server.
 *
 * <h2>How it follows the resource</h2>
 * The informer lists the resource at a revision, then watches it from that revision, in process:
 * the objects come from the watch cache as stored, without HTTP or serialisation. Every change
 * is applied to the cache and then handed to the handlers, in revision order. When its watch
 * expires (410 Gone), it lists again and hands each handler exactly what differs from its cache:
 * {@code onAdd} for objects it did not have, {@code onUpdate} for those whose resourceVersion
 * changed, {@code onDelete} for those gone; objects that did not change cause no notification.
 * When the resource's plugin is updated or goes away and comes back, the informer resumes
 * watching from the last revision it saw, so no change is lost or told twice; while the resource
 * is not served, the cache keeps its last state.
 *
 * <h2>Keys</h2>
 * Objects are keyed as client-go's {@code MetaNamespaceKeyFunc}: {@code <namespace>/<name>}, or
 * {@code <name>} for cluster-scoped objects (see {@link #keyOf}).
 *
 * <h2>Objects</h2>
 * The objects handed out (to handlers, by {@link #getByKey}, {@link #byIndex} and the lister) are
 * the cached ones, shared: they must not be changed.
 */
@ProviderType
public interface SharedIndexInformer {

    /** The index every informer has: objects by {@code metadata.namespace} (client-go's {@code cache.NamespaceIndex}). */
    String NAMESPACE_INDEX = "namespace";

    /** The resource followed. */
    GroupVersionResource resource();

    /**
     * Adds a handler. Once the informer has synced, the handler is first given every cached object
     * as an {@code onAdd} with {@code isInInitialList} set, then every later change; before, it gets
     * the first list's objects that way when the list arrives.
     */
    ResourceEventHandlerRegistration addEventHandler(ResourceEventHandler handler);

    /**
     * Adds a handler that is also given an {@code onUpdate(obj, obj)} for every cached object once
     * every {@code resyncPeriod} (client-go's resync: a controller's chance to act again on
     * objects it may have left in a wrong state). A zero period means no resync.
     */
    ResourceEventHandlerRegistration addEventHandler(ResourceEventHandler handler, Duration resyncPeriod);

    /**
     * Adds named indexers; an indexer added after the informer has synced is built from the cache
     * at once. Names must be new: an existing name is an {@link IllegalArgumentException}.
     */
    void addIndexers(Map<String, IndexFunc> indexers);

    /** The cached objects whose indexer {@code indexName} gives {@code indexedValue}, ordered by key. */
    List<ObjectNode> byIndex(String indexName, String indexedValue);

    /** The cached object with this key (see {@link #keyOf}), or null. */
    ObjectNode getByKey(String key);

    /** Reads the cache. */
    GenericLister lister();

    /** True once the first list has been applied to the cache. */
    boolean hasSynced();

    /**
     * Waits until {@link #hasSynced()}, or the timeout passes, or the informer stops.
     *
     * @return whether the informer has synced
     */
    boolean waitForSync(Duration timeout) throws InterruptedException;

    /** The resourceVersion of the last list or event applied to the cache; "" before the first list. */
    String lastSyncResourceVersion();

    /** client-go's {@code MetaNamespaceKeyFunc}: {@code <namespace>/<name>}, or {@code <name>} without a namespace. */
    static String keyOf(ObjectNode obj) {
        String namespace = obj.path("metadata").path("namespace").asText("");
        String name = obj.path("metadata").path("name").asText("");
        return keyOf(namespace, name);
    }

    /** The key of the object {@code name} in {@code namespace} (empty for cluster-scoped objects). */
    static String keyOf(String namespace, String name) {
        return namespace == null || namespace.isEmpty() ? name : namespace + "/" + name;
    }
}
