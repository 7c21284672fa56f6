package io.kubelix.runtime.endpoints;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.registry.CollectionDeleter;
import io.kubelix.api.registry.DeleteOptions;
import io.kubelix.api.registry.Lister;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.UpdateOptions;
import io.kubelix.api.registry.Updater;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupVersion;
import io.kubelix.api.storage.ListOptions;
import io.kubelix.api.storage.ResourceVersionMatch;
import io.kubelix.api.storage.SelectionPredicate;
import io.kubelix.api.storage.StorageException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The namespace controller, which kube runs in kube-controller-manager and Kubelix runs in the
 * server: a namespace being deleted ({@code deletionTimestamp} set) that still has the
 * {@code kubernetes} finalizer in {@code spec.finalizers} has every object of every namespaced
 * resource served in it deleted; once none is left, the finalizer is taken out through
 * {@code namespaces/finalize}, which removes the namespace when no other finalizer remains.
 * Objects that have finalizers of their own keep the namespace until those are removed; the
 * controller looks again at every pass.
 */
final class NamespaceController extends PeriodicController {
    private static final Logger LOG = LoggerFactory.getLogger(NamespaceController.class);
    private static final GroupVersion CORE_V1 = new GroupVersion("", "v1");
    static final String FINALIZER = "kubernetes";

    private final Supplier<RouteTable> routes;

    NamespaceController(Supplier<RouteTable> routes, Duration interval) {
        super("kubelix-namespace-controller", interval);
        this.routes = routes;
    }

    /** One pass over the namespaces being deleted. */
    @Override
    void syncAll() {
        try {
            RouteTable table = routes.get();
            if (!(table.lookup(CORE_V1, "namespaces") instanceof Lister namespaces)
                    || !(table.lookup(CORE_V1, "namespaces/finalize") instanceof Updater finalizer)) {
                return;
            }
            ListOptions fromCache = new ListOptions("0", ResourceVersionMatch.UNSET, SelectionPredicate.EVERYTHING,
                    true, 0, null, false);
            for (ObjectNode ns : namespaces.list(RequestContext.system(""), fromCache).items()) {
                if (deleting(ns) && hasFinalizer(ns)) {
                    sync(table, ns.path("metadata").path("name").asText(), finalizer);
                }
            }
        } catch (StatusException | StorageException e) {
            // Expected while storage is unreachable: one line per pass, the next pass tries again.
            LOG.warn("namespace controller: {}", e.getMessage());
        } catch (RuntimeException e) {
            LOG.warn("namespace controller: {}", e.toString(), e);
        }
    }

    private void sync(RouteTable table, String namespace, Updater finalizer) {
        long remaining = deleteContent(table, namespace);
        if (remaining > 0) {
            LOG.debug("namespace {}: {} objects still being deleted", namespace, remaining);
            return;
        }
        try {
            finalizer.update(RequestContext.system(""), namespace, (ctx, current) -> withoutFinalizer(current),
                    UpdateOptions.DEFAULT);
            LOG.info("namespace {}: content deleted, namespace finalized", namespace);
        } catch (StatusException e) {
            // Gone meanwhile, or changed: the next pass sees the new state.
            LOG.debug("namespace {}: not finalized: {}", namespace, e.getMessage());
        }
    }

    /** Deletes the namespace's objects of every namespaced resource; returns how many are left. */
    private static long deleteContent(RouteTable table, String namespace) {
        RequestContext ctx = RequestContext.system(namespace);
        Set<RESTStorage> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        long remaining = 0;
        for (RouteTable.Group group : table.groups()) {
            for (Map<String, RESTStorage> resources : group.resources().values()) {
                for (Map.Entry<String, RESTStorage> e : resources.entrySet()) {
                    RESTStorage storage = e.getValue();
                    // Subresources share their resource's objects; a storage served at several versions is one.
                    if (e.getKey().contains("/") || !storage.namespaced() || !seen.add(storage)) {
                        continue;
                    }
                    if (storage instanceof CollectionDeleter deleter) {
                        deleter.deleteCollection(ctx, DeleteOptions.DEFAULT, ListOptions.recursiveAll());
                    }
                    if (storage instanceof Lister lister) {
                        remaining += lister.list(ctx, ListOptions.recursiveAll()).items().size();
                    }
                }
            }
        }
        return remaining;
    }

    private static boolean deleting(ObjectNode ns) {
        JsonNode ts = ns.path("metadata").get("deletionTimestamp");
        return ts != null && !ts.isNull();
    }

    private static boolean hasFinalizer(ObjectNode ns) {
        for (JsonNode f : ns.path("spec").path("finalizers")) {
            if (FINALIZER.equals(f.asText())) {
                return true;
            }
        }
        return false;
    }

    private static ObjectNode withoutFinalizer(ObjectNode current) {
        ObjectNode next = current.deepCopy();
        JsonNode finalizers = next.path("spec").get("finalizers");
        if (finalizers instanceof ArrayNode list) {
            for (int i = list.size() - 1; i >= 0; i--) {
                if (FINALIZER.equals(list.get(i).asText())) {
                    list.remove(i);
                }
            }
        }
        return next;
    }
}
