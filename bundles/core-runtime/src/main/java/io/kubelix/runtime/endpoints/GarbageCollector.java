package io.kubelix.runtime.endpoints;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.registry.DeleteOptions;
import io.kubelix.api.registry.Getter;
import io.kubelix.api.registry.GracefulDeleter;
import io.kubelix.api.registry.Lister;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.UpdateOptions;
import io.kubelix.api.registry.Updater;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.registry.Watcher;
import io.kubelix.api.storage.ListOptions;
import io.kubelix.api.storage.ListResult;
import io.kubelix.api.storage.Preconditions;
import io.kubelix.api.storage.ResourceVersionMatch;
import io.kubelix.api.storage.SelectionPredicate;
import io.kubelix.api.storage.StorageException;
import io.kubelix.api.storage.Watch;
import io.kubelix.api.storage.WatchEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.ObjLongConsumer;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The garbage collector, which kube runs in kube-controller-manager and Kubelix runs in the
 * server. It follows {@code metadata.ownerReferences} across every served resource:
 * <ul>
 *   <li>a dependent whose owners are all gone (no object of the owner's kind, name and
 *       namespace with the referenced uid) is deleted, in the background; one that still has a
 *       live owner only loses its references to the gone ones;</li>
 *   <li>an owner being deleted with the {@code orphan} finalizer has its references removed from
 *       its dependents, then the finalizer removed, so it goes and they stay;</li>
 *   <li>an owner being deleted with the {@code foregroundDeletion} finalizer has its dependents
 *       deleted (in the foreground themselves when they own objects), and loses the finalizer once
 *       no dependent with {@code blockOwnerDeletion} is left.</li>
 * </ul>
 * An owner reference whose kind no served resource has, or a cluster-scoped dependent's reference
 * to a namespaced kind, cannot be resolved: such a dependent is left alone, as kube leaves it.
 * An owner is taken for gone only after a read from storage confirms it, never from the watch
 * cache's view alone, and a dependent is acted on only while its references are still those the
 * pass saw.
 *
 * <p>A pass reads every resource from the watch cache, but only when something changed since the
 * last one: the collector keeps a watch on each served resource and rereads when any has an event
 * that can concern it ({@link #concernsCollector}), ended, or is new, and every
 * {@value #RESCAN_SECONDS} seconds regardless. The watches are drained
 * as their events arrive, so the collector is never a slow watcher the cache has to terminate.
 */
final class GarbageCollector extends PeriodicController {
    private static final Logger LOG = LoggerFactory.getLogger(GarbageCollector.class);
    static final String FINALIZER_ORPHAN = "orphan";
    static final String FINALIZER_FOREGROUND = "foregroundDeletion";
    static final long RESCAN_SECONDS = 30;

    private final Supplier<RouteTable> routes;
    /** A watch on each served resource, opened at the revision of its last read; the map is touched by passes only. */
    private final Map<RESTStorage, Drain> watches = new IdentityHashMap<>();
    /** Set when a watch delivered an event or ended since the last pass looked. */
    private final AtomicBoolean changed = new AtomicBoolean();
    private long lastRead = System.nanoTime() - TimeUnit.SECONDS.toNanos(RESCAN_SECONDS);

    GarbageCollector(Supplier<RouteTable> routes, Duration interval) {
        super("kubelix-garbage-collector", interval);
        this.routes = routes;
    }

    /** One pass over every object of every served resource. */
    @Override
    void syncAll() {
        try {
            Map<RESTStorage, GroupResource> served = served(routes.get());
            if (!changed(served) && System.nanoTime() - lastRead < TimeUnit.SECONDS.toNanos(RESCAN_SECONDS)) {
                return;
            }
            lastRead = System.nanoTime();
            Graph graph = Graph.read(served, this::watchFrom);
            for (Node node : graph.nodes.values()) {
                if (node.deleting()) {
                    if (node.hasFinalizer(FINALIZER_ORPHAN)) {
                        orphanDependents(graph, node);
                    }
                    if (node.hasFinalizer(FINALIZER_FOREGROUND)) {
                        finishForeground(graph, node);
                    }
                } else if (!node.ownerReferences().isEmpty()) {
                    collect(graph, node);
                }
            }
        } catch (StatusException | StorageException e) {
            // Expected while storage is unreachable: one line per pass, the next pass tries again.
            LOG.warn("garbage collector: {}", e.getMessage());
        } catch (RuntimeException e) {
            LOG.warn("garbage collector: {}", e.toString(), e);
        }
    }

    @Override
    void stopped() {
        watches.values().forEach(d -> d.watch.close());
        watches.clear();
    }

    /** The resources served (not their subresources), each storage once however many versions serve it. */
    private static Map<RESTStorage, GroupResource> served(RouteTable table) {
        Map<RESTStorage, GroupResource> served = new IdentityHashMap<>();
        for (RouteTable.Group group : table.groups()) {
            for (Map<String, RESTStorage> resources : group.resources().values()) {
                for (Map.Entry<String, RESTStorage> e : resources.entrySet()) {
                    if (!e.getKey().contains("/") && e.getValue() instanceof Lister) {
                        served.putIfAbsent(e.getValue(), new GroupResource(group.name(), e.getKey()));
                    }
                }
            }
        }
        return served;
    }

    /**
     * Whether anything may have changed since the last read: a resource is new, its watch has an
     * event or ended. Watches of resources no longer served are closed.
     */
    private boolean changed(Map<RESTStorage, GroupResource> served) {
        boolean changed = this.changed.getAndSet(false);
        for (var it = watches.entrySet().iterator(); it.hasNext(); ) {
            var e = it.next();
            if (!served.containsKey(e.getKey())) {
                e.getValue().watch.close();
                it.remove();
            }
        }
        for (RESTStorage storage : served.keySet()) {
            Drain drain = watches.get(storage);
            if (drain == null) {
                changed = true;
                continue;
            }
            if (!drain.notifying) {
                drain.run();
            }
            if (drain.watch.done()) {
                drain.watch.close();
                watches.remove(storage);
                changed = true;
            }
        }
        return changed;
    }

    /**
     * Reads a watch's events as they come (on the producer's thread, without blocking) and notes that
     * something changed; a watch that cannot notify is read by each pass instead.
     */
    private final class Drain implements Runnable {
        final Watch watch;
        /** Whether the watch tells when it has events; set before arming, since arming may run the drain at once. */
        volatile boolean notifying = true;

        Drain(Watch watch) {
            this.watch = watch;
            notifying = watch.onReady(this);
        }

        @Override
        public void run() {
            for (WatchEvent event = watch.poll(); event != null; event = watch.poll()) {
                if (concernsCollector(event)) {
                    changed.set(true);
                }
            }
            if (watch.done()) {
                changed.set(true);
            } else if (notifying) {
                watch.onReady(this);
            }
        }
    }

    /**
     * Whether an event can give a pass work: a deletion (an owner may be gone), or an object that
     * has owner references or is being deleted (its finalizers are the collector's to run). Other
     * changes, such as a busy configmap's updates, leave the graph's edges as they were, so they do
     * not make the collector read every resource again.
     */
    static boolean concernsCollector(WatchEvent event) {
        return switch (event.type()) {
            case BOOKMARK -> false;
            case ADDED, MODIFIED -> {
                JsonNode meta = event.object().path("metadata");
                yield !meta.path("ownerReferences").isEmpty() || meta.hasNonNull("deletionTimestamp");
            }
            case DELETED, ERROR -> true;
        };
    }

    /** Opens the watch on {@code storage} from the revision it was just read at, unless one is open. */
    private void watchFrom(RESTStorage storage, long revision) {
        if (watches.containsKey(storage) || !(storage instanceof Watcher watcher)) {
            return;
        }
        try {
            watches.put(storage, new Drain(watcher.watch(RequestContext.system(""), new ListOptions(Long.toString(revision),
                    ResourceVersionMatch.UNSET, SelectionPredicate.EVERYTHING, true, 0, null, false))));
        } catch (StatusException | StorageException e) {
            LOG.debug("garbage collector: no watch on {}: {}", storage.kind(), e.getMessage());
        }
    }

    /** An owner going with the orphan finalizer: its dependents lose their references to it, then it loses the finalizer. */
    private void orphanDependents(Graph graph, Node owner) {
        for (Node dependent : graph.dependents(owner.uid())) {
            if (!update(dependent, current -> removeOwnerReferences(current, uid -> uid.equals(owner.uid())))) {
                return;
            }
        }
        if (update(owner, current -> removeFinalizer(current, FINALIZER_ORPHAN))) {
            LOG.info("garbage collector: dependents of {} orphaned", owner);
        }
    }

    /** An owner going in the foreground loses its finalizer once no dependent blocks it. */
    private void finishForeground(Graph graph, Node owner) {
        for (Node dependent : graph.dependents(owner.uid())) {
            for (JsonNode ref : dependent.ownerReferences()) {
                if (owner.uid().equals(ref.path("uid").asText()) && ref.path("blockOwnerDeletion").asBoolean(false)) {
                    return; // its deletion is collect()'s work; the owner waits for it
                }
            }
        }
        if (update(owner, current -> removeFinalizer(current, FINALIZER_FOREGROUND))) {
            LOG.info("garbage collector: dependents of {} deleted", owner);
        }
    }

    /** kube's attemptToDeleteItem for a dependent that is not being deleted itself. */
    private void collect(Graph graph, Node dependent) {
        List<String> solid = new ArrayList<>();
        List<String> gone = new ArrayList<>();
        List<String> waiting = new ArrayList<>();
        for (JsonNode ref : dependent.ownerReferences()) {
            switch (graph.owner(dependent, ref)) {
                case UNRESOLVABLE -> {
                    return;
                }
                case SOLID -> solid.add(ref.path("uid").asText());
                case GONE -> gone.add(ref.path("uid").asText());
                case WAITING -> waiting.add(ref.path("uid").asText());
            }
        }
        if (gone.isEmpty() && waiting.isEmpty()) {
            return;
        }
        if (!solid.isEmpty()) {
            // A live owner keeps the dependent; references to the gone and the foreground-deleted ones go.
            if (update(dependent, current -> removeOwnerReferences(current, uid -> gone.contains(uid) || waiting.contains(uid)))) {
                LOG.info("garbage collector: {} lost its references to owners {}", dependent, concat(gone, waiting));
            }
            return;
        }
        String policy;
        if (!waiting.isEmpty() && !graph.dependents(dependent.uid()).isEmpty()) {
            policy = DeleteOptions.PROPAGATION_FOREGROUND;
        } else if (dependent.hasFinalizer(FINALIZER_ORPHAN)) {
            policy = DeleteOptions.PROPAGATION_ORPHAN;
        } else if (dependent.hasFinalizer(FINALIZER_FOREGROUND)) {
            policy = DeleteOptions.PROPAGATION_FOREGROUND;
        } else {
            policy = DeleteOptions.PROPAGATION_BACKGROUND;
        }
        delete(dependent, policy, concat(gone, waiting));
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    private void delete(Node dependent, String policy, List<String> owners) {
        if (!(dependent.storage instanceof GracefulDeleter deleter) || !stillAsSeen(dependent)) {
            return;
        }
        try {
            deleter.delete(RequestContext.system(dependent.namespace), dependent.name,
                    new DeleteOptions(false, null, new Preconditions(dependent.uid(), null), policy));
            LOG.info("garbage collector: deleting {} (owners {} gone), propagation {}", dependent, owners, policy);
        } catch (StatusException e) {
            // Gone or replaced meanwhile: the next pass sees the new state.
            LOG.debug("garbage collector: {} not deleted: {}", dependent, e.getMessage());
        }
    }

    /** Whether the dependent's live references are still those the pass decided on. */
    private static boolean stillAsSeen(Node node) {
        if (!(node.storage instanceof Getter getter)) {
            return false;
        }
        try {
            JsonNode live = getter.get(RequestContext.system(node.namespace), node.name, "").path("metadata");
            return node.uid().equals(live.path("uid").asText())
                    && Objects.equals(node.ownerReferences(), live.path("ownerReferences"));
        } catch (StatusException e) {
            return false;
        }
    }

    /** Updates the node's live object with {@code change}, if it is still the same object; false when it did not happen. */
    private static boolean update(Node node, UnaryOperator<ObjectNode> change) {
        if (!(node.storage instanceof Updater updater)) {
            return false;
        }
        try {
            updater.update(RequestContext.system(node.namespace), node.name, (ctx, current) -> {
                if (current == null || !node.uid().equals(current.path("metadata").path("uid").asText())) {
                    throw StatusException.conflict(node.resource, node.name, "the object was replaced");
                }
                return change.apply(current.deepCopy());
            }, UpdateOptions.DEFAULT);
            return true;
        } catch (StatusException e) {
            if (e.code() == 404) {
                return true; // gone: nothing left to change
            }
            LOG.debug("garbage collector: {} not updated: {}", node, e.getMessage());
            return false;
        }
    }

    private static ObjectNode removeOwnerReferences(ObjectNode obj, Predicate<String> ownerUid) {
        if (obj.path("metadata").get("ownerReferences") instanceof ArrayNode refs) {
            for (int i = refs.size() - 1; i >= 0; i--) {
                if (ownerUid.test(refs.get(i).path("uid").asText())) {
                    refs.remove(i);
                }
            }
            if (refs.isEmpty()) {
                ((ObjectNode) obj.get("metadata")).remove("ownerReferences");
            }
        }
        return obj;
    }

    private static ObjectNode removeFinalizer(ObjectNode obj, String finalizer) {
        if (obj.path("metadata").get("finalizers") instanceof ArrayNode list) {
            for (int i = list.size() - 1; i >= 0; i--) {
                if (finalizer.equals(list.get(i).asText())) {
                    list.remove(i);
                }
            }
        }
        return obj;
    }

    /** What an owner reference of a dependent points at. */
    enum OwnerState {
        /** The owner exists and is not being deleted in the foreground. */
        SOLID,
        /** No object of the owner's kind, name and namespace has the referenced uid. */
        GONE,
        /** The owner is being deleted in the foreground, waiting for its dependents. */
        WAITING,
        /** The kind is not served, or a cluster-scoped dependent names a namespaced kind. */
        UNRESOLVABLE
    }

    /** One object of a served resource, as a pass saw it. */
    private record Node(RESTStorage storage, GroupResource resource, String namespace,
                        String name, JsonNode metadata) {
        String uid() {
            return metadata.path("uid").asText();
        }

        JsonNode ownerReferences() {
            return metadata.path("ownerReferences");
        }

        boolean deleting() {
            JsonNode ts = metadata.get("deletionTimestamp");
            return ts != null && !ts.isNull();
        }

        boolean hasFinalizer(String finalizer) {
            for (JsonNode f : metadata.path("finalizers")) {
                if (finalizer.equals(f.asText())) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public String toString() {
            return resource + " " + (namespace.isEmpty() ? name : namespace + "/" + name);
        }
    }

    /** Every object of every served resource, by uid, with the resources that serve each owner kind. */
    private static final class Graph {
        final Map<String, Node> nodes = new HashMap<>();
        final Map<String, List<Node>> dependents = new HashMap<>();
        /** {@code <group>/<Kind>} to the storage serving that kind. */
        final Map<String, RESTStorage> kinds = new HashMap<>();

        /** Reads every served resource from the watch cache, telling {@code read} each one's revision. */
        static Graph read(Map<RESTStorage, GroupResource> served, ObjLongConsumer<RESTStorage> read) {
            Graph g = new Graph();
            ListOptions fromCache = new ListOptions("0", ResourceVersionMatch.UNSET, SelectionPredicate.EVERYTHING,
                    true, 0, null, false);
            for (Map.Entry<RESTStorage, GroupResource> e : served.entrySet()) {
                RESTStorage storage = e.getKey();
                g.kinds.putIfAbsent(e.getValue().group() + "/" + storage.kind(), storage);
                ListResult list = ((Lister) storage).list(RequestContext.system(""), fromCache);
                for (ObjectNode obj : list.items()) {
                    g.add(storage, e.getValue(), obj);
                }
                read.accept(storage, list.resourceVersion());
            }
            return g;
        }

        private void add(RESTStorage storage, GroupResource resource, ObjectNode obj) {
            JsonNode meta = obj.path("metadata");
            Node node = new Node(storage, resource, meta.path("namespace").asText(""), meta.path("name").asText(),
                    meta);
            nodes.put(node.uid(), node);
            for (JsonNode ref : node.ownerReferences()) {
                dependents.computeIfAbsent(ref.path("uid").asText(), k -> new ArrayList<>()).add(node);
            }
        }

        List<Node> dependents(String ownerUid) {
            return dependents.getOrDefault(ownerUid, List.of());
        }

        /** Resolves one owner reference of {@code dependent}, reading storage before calling an owner gone. */
        OwnerState owner(Node dependent, JsonNode ref) {
            String apiVersion = ref.path("apiVersion").asText();
            String group = apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
            RESTStorage storage = kinds.get(group + "/" + ref.path("kind").asText());
            if (storage == null || storage.namespaced() && dependent.namespace().isEmpty()) {
                return OwnerState.UNRESOLVABLE;
            }
            String namespace = storage.namespaced() ? dependent.namespace() : "";
            String uid = ref.path("uid").asText();
            String name = ref.path("name").asText();
            Node seen = nodes.get(uid);
            if (seen != null && seen.storage() == storage && seen.name().equals(name) && seen.namespace().equals(namespace)) {
                return state(seen.metadata());
            }
            if (!(storage instanceof Getter getter)) {
                return OwnerState.UNRESOLVABLE;
            }
            try {
                JsonNode live = getter.get(RequestContext.system(namespace), name, "").path("metadata");
                return uid.equals(live.path("uid").asText()) ? state(live) : OwnerState.GONE;
            } catch (StatusException e) {
                return e.code() == 404 ? OwnerState.GONE : OwnerState.UNRESOLVABLE;
            }
        }

        private static OwnerState state(JsonNode ownerMeta) {
            JsonNode ts = ownerMeta.get("deletionTimestamp");
            boolean deleting = ts != null && !ts.isNull();
            for (JsonNode f : ownerMeta.path("finalizers")) {
                if (deleting && FINALIZER_FOREGROUND.equals(f.asText())) {
                    return OwnerState.WAITING;
                }
            }
            return OwnerState.SOLID;
        }
    }
}
