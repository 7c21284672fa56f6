package io.kubelix.runtime.controller.garbagecollector;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.informer.ResourceEventHandler;
import io.kubelix.api.registry.DeleteOptions;
import io.kubelix.api.registry.Getter;
import io.kubelix.api.registry.GracefulDeleter;
import io.kubelix.api.registry.Lister;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.UpdateOptions;
import io.kubelix.api.registry.Updater;
import io.kubelix.api.registry.Watcher;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.api.storage.Preconditions;
import io.kubelix.runtime.controller.FollowedResources;
import io.kubelix.runtime.controller.QueueWorkers;
import io.kubelix.runtime.controller.ServedResources;
import io.kubelix.runtime.controller.informer.InformerFactory;
import io.kubelix.runtime.controller.workqueue.WorkQueue;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * The garbage collector, which kube runs in kube-controller-manager and Kubelix runs in the
 * server. It follows {@code metadata.ownerReferences} across every served resource:
 * <ul>
 *   <li>a dependent whose owners are all gone (no object of the owner's kind, name and namespace
 *       with the referenced uid) is deleted, in the background; one that still has a live owner
 *       only loses its references to the gone ones;</li>
 *   <li>an owner being deleted with the {@code orphan} finalizer has its references removed from
 *       its dependents, then the finalizer removed, so it goes and they stay;</li>
 *   <li>an owner being deleted with the {@code foregroundDeletion} finalizer has its dependents
 *       deleted (in the foreground themselves when they own objects), and loses the finalizer once
 *       no dependent with {@code blockOwnerDeletion} is left.</li>
 * </ul>
 * An owner reference whose kind no served resource has, or a cluster-scoped dependent's reference
 * to a namespaced kind, cannot be resolved: such a dependent is left alone, as kube leaves it.
 *
 * <p>As kube's, it keeps a dependency {@link Graph} from the events of an informer on every served
 * resource (resources that come later, a plugin or an update, are followed as they come), and a
 * change queues only the objects it concerns: an object with owners that are new or changed, an
 * object being deleted with one of its finalizers (and, in the foreground, its dependents), and
 * the dependents and owners of an object that went. An idle server does no work. An owner absent
 * from the graph is read from storage before it is taken for gone, and a dependent is deleted only
 * while its references are still those the decision saw.
 *
 * <p>The informers run apart, so the graph may hold an owner's deletion before a dependent created
 * just before it, in a resource whose informer is behind. A decision that rests on an object's
 * dependents (removing the {@code orphan} or {@code foregroundDeletion} finalizer, or deleting a
 * dependent in the foreground because it owns others) is therefore taken only once every followed
 * informer has told the graph of each change up to that object's revision (storage revisions are
 * global); an idle informer is asked for progress (a bookmark) to get there.
 */
@Component(service = {})
public final class GarbageCollector {
    static final String FINALIZER_ORPHAN = "orphan";
    static final String FINALIZER_FOREGROUND = "foregroundDeletion";
    private static final Logger LOG = LoggerFactory.getLogger(GarbageCollector.class);
    /** How long an object waits while the graph is still being built (at start, or as a resource arrives). */
    static final java.time.Duration GRAPH_SYNC_WAIT = java.time.Duration.ofMillis(200);
    /** How long a decision waits for every informer to reach the revision it concerns before it is retried. */
    static final java.time.Duration OBSERVE_WAIT = java.time.Duration.ofSeconds(5);

    /** What an owner reference of a dependent points at. */
    enum OwnerState { SOLID, GONE, WAITING, UNRESOLVABLE }

    private final ServedResources served;
    private final InformerFactory informers;
    private final Graph graph = new Graph();
    private final WorkQueue<String> queue = WorkQueue.withDefaultRateLimiter("garbage-collector");
    private final QueueWorkers<String> workers;
    /** Every served resource that can be listed and watched, one version per storage. */
    private final FollowedResources followed;
    /** {@code <group>/<Kind>} to a version serving it; replaced whole when what is served changes. */
    private volatile Map<String, GroupVersionResource> kinds = Map.of();

    @Activate
    public GarbageCollector(@Reference InformerFactory informers, @Reference ServedResources served) {
        this(informers, served, 2);
    }

    public GarbageCollector(InformerFactory informers, ServedResources served, int workers) {
        this.informers = informers;
        this.served = served;
        this.workers = new QueueWorkers<>("garbage-collector", queue, workers, this::sync);
        // A resource no longer served takes its objects out of the graph: owners of its kind are unresolvable.
        this.followed = new FollowedResources(served, informers, GarbageCollector::followable, Follow::new,
                graph::removeResource, this::updateKinds);
        followed.start();
        this.workers.start();
    }

    @Deactivate
    public void deactivate() {
        followed.stop();
        workers.stop();
    }

    private static boolean followable(RESTStorage s) {
        return s instanceof Lister && s instanceof Watcher;
    }

    /** Maps each served kind to a version serving it, for resolving owner references. */
    private void updateKinds() {
        Map<String, GroupVersionResource> now = new HashMap<>();
        for (GroupVersionResource r : served.resources()) {
            RESTStorage s = served.storage(r);
            if (followable(s)) {
                now.putIfAbsent(r.group() + "/" + s.kind(), r);
            }
        }
        kinds = Map.copyOf(now);
    }

    /** Keeps one resource's objects in the graph and queues what their changes concern. */
    private final class Follow implements ResourceEventHandler {
        private final GroupVersionResource resource;
        private final String kind;

        Follow(GroupVersionResource resource) {
            this.resource = resource;
            RESTStorage storage = served.storage(resource);
            this.kind = storage == null ? "" : storage.kind();
        }

        @Override
        public void onAdd(ObjectNode obj, boolean isInInitialList) {
            changed(obj);
        }

        @Override
        public void onUpdate(ObjectNode oldObj, ObjectNode newObj) {
            changed(newObj);
        }

        @Override
        public void onDelete(ObjectNode obj) {
            Graph.Node gone = graph.remove(obj.path("metadata").path("uid").asText());
            if (gone == null) {
                return;
            }
            // Its dependents may be orphans now; its owners may be waiting for it (foreground).
            graph.dependents(gone.uid()).forEach(d -> queue.add(d.uid()));
            gone.ownerUids().forEach(queue::add);
        }

        private void changed(ObjectNode obj) {
            JsonNode meta = obj.path("metadata");
            Graph.Node node = new Graph.Node(resource, resource.group(), kind, meta.path("namespace").asText(""),
                    meta.path("name").asText(), meta);
            Graph.Node old = graph.put(node);
            if (node.deleting() && (node.hasFinalizer(FINALIZER_ORPHAN) || node.hasFinalizer(FINALIZER_FOREGROUND))) {
                queue.add(node.uid());
                if (node.hasFinalizer(FINALIZER_FOREGROUND)) {
                    graph.dependents(node.uid()).forEach(d -> queue.add(d.uid()));
                }
            }
            if (!node.ownerReferences().isEmpty()
                    && (old == null || !old.ownerReferences().equals(node.ownerReferences()))) {
                queue.add(node.uid());
            }
        }
    }

    /** kube's attemptToDeleteItem / attemptToOrphan for one object. */
    private void sync(String uid) throws InterruptedException {
        if (!graphSynced()) {
            // kube's collector waits for its graph too: an owner's dependents may not all be in it yet.
            queue.addAfter(uid, GRAPH_SYNC_WAIT);
            return;
        }
        Graph.Node node = graph.get(uid);
        if (node == null) {
            return;
        }
        boolean finalizing = node.hasFinalizer(FINALIZER_ORPHAN) || node.hasFinalizer(FINALIZER_FOREGROUND);
        if (node.deleting() && finalizing) {
            // Its dependents are those the graph holds once every informer has reached the revision
            // at which it was marked: a dependent created just before, in a resource whose informer is
            // behind, would otherwise be missed and the finalizer removed at once.
            if (!graphObserved(node)) {
                queue.addAfter(uid, GRAPH_SYNC_WAIT);
                return;
            }
            node = graph.get(uid);
            if (node == null || !node.deleting()) {
                return;
            }
            if (node.hasFinalizer(FINALIZER_ORPHAN)) {
                orphanDependents(node);
            }
            if (node.hasFinalizer(FINALIZER_FOREGROUND)) {
                finishForeground(node);
            }
        } else if (!node.deleting() && !node.ownerReferences().isEmpty()) {
            if (!collect(node)) {
                queue.addAfter(uid, GRAPH_SYNC_WAIT);
            }
        }
    }

    /**
     * Whether every followed informer has told the graph of each change up to the node's revision;
     * waits for it at most {@link #OBSERVE_WAIT}, asking idle informers for progress.
     */
    private boolean graphObserved(Graph.Node node) throws InterruptedException {
        long rv = node.resourceVersion();
        if (followed.awaitObserved(rv, OBSERVE_WAIT)) {
            return true;
        }
        LOG.debug("garbage collector: the informers have not all reached revision {} of {}; retrying", rv, node);
        return false;
    }

    /** An owner going with the orphan finalizer: its dependents lose their references to it, then it loses the finalizer. */
    private void orphanDependents(Graph.Node owner) {
        for (Graph.Node dependent : graph.dependents(owner.uid())) {
            update(dependent, current -> removeOwnerReferences(current, uid -> uid.equals(owner.uid())));
        }
        update(owner, current -> removeFinalizer(current, FINALIZER_ORPHAN));
        LOG.info("garbage collector: dependents of {} orphaned", owner);
    }

    /** An owner going in the foreground loses its finalizer once no dependent blocks it. */
    private void finishForeground(Graph.Node owner) {
        boolean blocked = false;
        for (Graph.Node dependent : graph.dependents(owner.uid())) {
            for (JsonNode ref : dependent.ownerReferences()) {
                if (owner.uid().equals(ref.path("uid").asText()) && ref.path("blockOwnerDeletion").asBoolean(false)) {
                    blocked = true;
                    // Its deletion is collect()'s work, and its going queues the owner again; as kube's
                    // processDeletingDependentsItem, one not being deleted yet is queued for it.
                    if (!dependent.deleting()) {
                        queue.add(dependent.uid());
                    }
                }
            }
        }
        if (!blocked) {
            update(owner, current -> removeFinalizer(current, FINALIZER_FOREGROUND));
            LOG.info("garbage collector: dependents of {} deleted", owner);
        }
    }

    /** Whether the informer of every followed resource has listed it. */
    private boolean graphSynced() {
        for (GroupVersionResource r : followed.resources()) {
            if (!informers.forResource(r).hasSynced()) {
                return false;
            }
        }
        return true;
    }

    /**
     * kube's attemptToDeleteItem for a dependent that is not being deleted itself; false when it must
     * be tried again later (the informers have not reached its revision yet).
     */
    private boolean collect(Graph.Node dependent) throws InterruptedException {
        List<String> solid = new ArrayList<>();
        List<String> gone = new ArrayList<>();
        List<String> waiting = new ArrayList<>();
        for (JsonNode ref : dependent.ownerReferences()) {
            switch (owner(dependent, ref)) {
                case UNRESOLVABLE -> {
                    return true;
                }
                case SOLID -> solid.add(ref.path("uid").asText());
                case GONE -> gone.add(ref.path("uid").asText());
                case WAITING -> waiting.add(ref.path("uid").asText());
            }
        }
        if (gone.isEmpty() && waiting.isEmpty()) {
            return true;
        }
        List<String> absent = new ArrayList<>(gone);
        absent.addAll(waiting);
        if (!solid.isEmpty()) {
            // A live owner keeps the dependent; references to the gone and the foreground-deleted ones go.
            update(dependent, current -> removeOwnerReferences(current, absent::contains));
            LOG.info("garbage collector: {} lost its references to owners {}", dependent, absent);
            return true;
        }
        if (!waiting.isEmpty() && !graphObserved(dependent)) {
            return false; // whether it has dependents of its own decides how it goes
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
        delete(dependent, policy, absent);
        return true;
    }

    /** Resolves one owner reference: from the graph, else from storage before calling it gone. */
    OwnerState owner(Graph.Node dependent, JsonNode ref) {
        String apiVersion = ref.path("apiVersion").asText();
        String group = apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
        String kind = ref.path("kind").asText();
        GroupVersionResource resource = kinds.get(group + "/" + kind);
        RESTStorage storage = resource == null ? null : served.storage(resource);
        if (storage == null || storage.namespaced() && dependent.namespace().isEmpty()) {
            return OwnerState.UNRESOLVABLE;
        }
        String namespace = storage.namespaced() ? dependent.namespace() : "";
        String uid = ref.path("uid").asText();
        String name = ref.path("name").asText();
        Graph.Node seen = graph.get(uid);
        if (seen != null && seen.group().equals(group) && seen.kind().equals(kind) && seen.name().equals(name)
                && seen.namespace().equals(namespace)) {
            return state(seen.metadata());
        }
        if (!(storage instanceof Getter getter)) {
            return OwnerState.UNRESOLVABLE;
        }
        try {
            JsonNode live = getter.get(RequestContext.system(namespace), name, "").path("metadata");
            return uid.equals(live.path("uid").asText()) ? state(live) : OwnerState.GONE;
        } catch (StatusException e) {
            if (e.code() == 404) {
                return OwnerState.GONE;
            }
            throw e;
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

    private void delete(Graph.Node dependent, String policy, List<String> owners) {
        if (!(served.storage(dependent.resource()) instanceof GracefulDeleter deleter) || !stillAsSeen(dependent)) {
            return;
        }
        try {
            deleter.delete(RequestContext.system(dependent.namespace()), dependent.name(),
                    new DeleteOptions(false, null, new Preconditions(dependent.uid(), null), policy));
            LOG.info("garbage collector: deleting {} (owners {} gone), propagation {}", dependent, owners, policy);
        } catch (StatusException e) {
            if (e.code() != 404 && e.code() != 409) {
                throw e;
            }
            // Gone or replaced meanwhile: its events queue what follows.
        }
    }

    /** Whether the dependent's live references are still those the decision saw. */
    private boolean stillAsSeen(Graph.Node node) {
        if (!(served.storage(node.resource()) instanceof Getter getter)) {
            return false;
        }
        try {
            JsonNode live = getter.get(RequestContext.system(node.namespace()), node.name(), "").path("metadata");
            return node.uid().equals(live.path("uid").asText())
                    && Objects.equals(node.ownerReferences(), live.path("ownerReferences"));
        } catch (StatusException e) {
            if (e.code() == 404) {
                return false;
            }
            throw e;
        }
    }

    /** Updates the node's live object with {@code change}, if it is still the same object (gone is done). */
    private void update(Graph.Node node, UnaryOperator<ObjectNode> change) {
        if (!(served.storage(node.resource()) instanceof Updater updater)) {
            return;
        }
        try {
            updater.update(RequestContext.system(node.namespace()), node.name(), (ctx, current) -> {
                if (current == null || !node.uid().equals(current.path("metadata").path("uid").asText())) {
                    throw StatusException.conflict(GroupResource.of(node.group(), node.resource().resource()),
                            node.name(), "the object was replaced");
                }
                return change.apply(current.deepCopy());
            }, UpdateOptions.DEFAULT);
        } catch (StatusException e) {
            if (e.code() != 404) {
                throw e;
            }
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
}
