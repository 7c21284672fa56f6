package io.kubelix.resource.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.api.registry.CreateOptions;
import io.kubelix.api.registry.DeleteOptions;
import io.kubelix.api.registry.StandardStorage;
import io.kubelix.api.registry.UpdateOptions;
import io.kubelix.api.request.RequestContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * kube-apiserver's RBAC bootstrap (the rbac/bootstrap-roles post-start hook): makes the
 * {@link BootstrapPolicy} cluster roles and bindings, and the roles and bindings of the kube-
 * namespaces, exist, as kube's reconciler does. A missing
 * object is created; a stored one annotated {@code rbac.authorization.kubernetes.io/autoupdate:
 * "false"} is left alone; any other gets what it lacks (labels, annotations, rules or aggregation
 * selectors, subjects) and keeps what users added; a binding whose roleRef differs is recreated.
 * It runs on the provider's executor, retrying with backoff until the storage answers, then stops.
 */
final class PolicyReconciler {
    static final long INITIAL_BACKOFF_MILLIS = 200;
    static final long MAX_BACKOFF_MILLIS = TimeUnit.SECONDS.toMillis(30);

    private static final Logger LOG = LoggerFactory.getLogger(PolicyReconciler.class);

    private final BootstrapPolicy policy;
    private final StandardStorage clusterRoles;
    private final StandardStorage clusterRoleBindings;
    private final StandardStorage roles;
    private final StandardStorage roleBindings;
    private final ScheduledExecutorService executor;
    private final Runnable onDone;
    private long backoffMillis = INITIAL_BACKOFF_MILLIS;
    private ScheduledFuture<?> next;
    private boolean stopped;

    PolicyReconciler(BootstrapPolicy policy, StandardStorage clusterRoles, StandardStorage clusterRoleBindings,
                     StandardStorage roles, StandardStorage roleBindings, ScheduledExecutorService executor) {
        this(policy, clusterRoles, clusterRoleBindings, roles, roleBindings, executor, () -> { });
    }

    /** @param onDone run once every role and binding is in place */
    PolicyReconciler(BootstrapPolicy policy, StandardStorage clusterRoles, StandardStorage clusterRoleBindings,
                     StandardStorage roles, StandardStorage roleBindings, ScheduledExecutorService executor,
                     Runnable onDone) {
        this.onDone = onDone;
        this.policy = policy;
        this.clusterRoles = clusterRoles;
        this.clusterRoleBindings = clusterRoleBindings;
        this.roles = roles;
        this.roleBindings = roleBindings;
        this.executor = executor;
    }

    synchronized void start() {
        schedule(0);
    }

    synchronized void stop() {
        stopped = true;
        if (next != null) {
            next.cancel(false);
        }
    }

    /**
     * One pass over the whole policy.
     *
     * @return true when every role and binding is reconciled
     */
    boolean ensure() {
        boolean all = true;
        try {
            for (ObjectNode role : policy.clusterRoles()) {
                all &= ensure(clusterRoles, role, PolicyReconciler::reconcileRole);
            }
            for (ObjectNode binding : policy.clusterRoleBindings()) {
                all &= ensure(clusterRoleBindings, binding, PolicyReconciler::reconcileBinding);
            }
            // In namespaces the server creates itself: until then the writes fail and the next pass retries.
            for (ObjectNode role : policy.roles()) {
                all &= ensure(roles, role, PolicyReconciler::reconcileRole);
            }
            for (ObjectNode binding : policy.roleBindings()) {
                all &= ensure(roleBindings, binding, PolicyReconciler::reconcileBinding);
            }
        } catch (StatusException e) {
            // Storage plugins may start after this one: waiting for them is normal.
            LOG.info("RBAC bootstrap policy waits for storage: {}", e.getMessage());
            return false;
        }
        return all;
    }

    /** What a stored object becomes, or null when it already holds everything expected. */
    @FunctionalInterface
    interface Reconcile {
        ObjectNode apply(ObjectNode existing, ObjectNode expected);
    }

    private boolean ensure(StandardStorage store, ObjectNode expected, Reconcile reconcile) {
        String namespace = expected.path("metadata").path("namespace").asText("");
        RequestContext ctx = RequestContext.system(namespace);
        String name = expected.path("metadata").path("name").asText();
        String what = expected.path("kind").asText() + " " + (namespace.isEmpty() ? "" : namespace + "/") + name;
        try {
            ObjectNode existing = get(ctx, store, name);
            if (existing == null) {
                store.create(ctx, expected, CreateOptions.DEFAULT);
                LOG.info("created bootstrap {}", what);
                return true;
            }
            if ("false".equals(existing.path("metadata").path("annotations").path(BootstrapPolicy.AUTOUPDATE_ANNOTATION).asText())) {
                return true;
            }
            ObjectNode updated = reconcile.apply(existing, expected);
            if (updated == null) {
                return true;
            }
            if (expected.has("roleRef") && !existing.path("roleRef").equals(expected.path("roleRef"))) {
                // A roleRef cannot change: kube deletes the binding and creates it again.
                ((ObjectNode) updated.get("metadata")).remove(List.of("resourceVersion", "uid", "creationTimestamp"));
                updated.set("roleRef", expected.get("roleRef").deepCopy());
                store.delete(ctx, name, DeleteOptions.DEFAULT);
                store.create(ctx, updated, CreateOptions.DEFAULT);
                LOG.info("recreated bootstrap {} with roleRef {}", what, expected.path("roleRef").path("name").asText());
                return true;
            }
            store.update(ctx, name, (c, old) -> {
                ObjectNode current = reconcile.apply(old, expected);
                return current == null ? old : current;
            }, UpdateOptions.DEFAULT);
            LOG.info("reconciled bootstrap {}", what);
            return true;
        } catch (StatusException e) {
            if (e.reason() == StatusReason.SERVICE_UNAVAILABLE) {
                throw e;
            }
            if (e.reason() == StatusReason.ALREADY_EXISTS || e.reason() == StatusReason.CONFLICT) {
                return false; // someone else wrote it meanwhile: the next pass looks again
            }
            if (e.reason() == StatusReason.NOT_FOUND && !namespace.isEmpty()) {
                LOG.debug("bootstrap {} waits for its namespace: {}", what, e.getMessage());
                return false;
            }
            LOG.warn("could not reconcile bootstrap {}: {} {}", what, e.code(), e.getMessage());
            return false;
        }
    }

    private static ObjectNode get(RequestContext ctx, StandardStorage store, String name) {
        try {
            return store.get(ctx, name, "");
        } catch (StatusException e) {
            if (e.reason() == StatusReason.NOT_FOUND) {
                return null;
            }
            throw e;
        }
    }

    /** A (cluster) role with the expected labels, annotations, rules and aggregation selectors it lacks. */
    static ObjectNode reconcileRole(ObjectNode existing, ObjectNode expected) {
        ObjectNode out = existing.deepCopy();
        boolean changed = mergeMetadata(out, expected);
        JsonNode owned = out.path("rules");
        List<JsonNode> missing = PolicyRules.uncovered(owned, expected.path("rules"));
        if (!missing.isEmpty()) {
            ArrayNode rules = owned.isArray() ? (ArrayNode) owned : out.putArray("rules");
            missing.forEach(r -> rules.add(r.deepCopy()));
            changed = true;
        }
        JsonNode wantedSelectors = expected.path("aggregationRule").path("clusterRoleSelectors");
        if (!wantedSelectors.isEmpty()) {
            ObjectNode rule = out.get("aggregationRule") instanceof ObjectNode r ? r : out.putObject("aggregationRule");
            ArrayNode selectors = rule.get("clusterRoleSelectors") instanceof ArrayNode a ? a : rule.putArray("clusterRoleSelectors");
            changed |= addMissing(selectors, wantedSelectors);
        }
        return changed ? out : null;
    }

    /** A (cluster) role binding with the expected labels, annotations and subjects it lacks, and the expected roleRef. */
    static ObjectNode reconcileBinding(ObjectNode existing, ObjectNode expected) {
        ObjectNode out = existing.deepCopy();
        boolean changed = mergeMetadata(out, expected);
        if (expected.path("subjects").size() > 0) {
            ArrayNode subjects = out.get("subjects") instanceof ArrayNode a ? a : out.putArray("subjects");
            changed |= addMissing(subjects, expected.path("subjects"));
        }
        changed |= !out.path("roleRef").equals(expected.path("roleRef"));
        return changed ? out : null;
    }

    /** Adds the expected labels and annotations the object lacks; its own values win. */
    private static boolean mergeMetadata(ObjectNode obj, ObjectNode expected) {
        ObjectNode meta = (ObjectNode) obj.get("metadata");
        boolean changed = false;
        for (String field : new String[] {"labels", "annotations"}) {
            ObjectNode have = meta.get(field) instanceof ObjectNode o ? o : null;
            for (Iterator<Map.Entry<String, JsonNode>> it = expected.path("metadata").path(field).fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (have == null) {
                    have = meta.putObject(field);
                }
                if (!have.has(e.getKey())) {
                    have.set(e.getKey(), e.getValue());
                    changed = true;
                }
            }
        }
        return changed;
    }

    private static boolean addMissing(ArrayNode have, JsonNode wanted) {
        boolean changed = false;
        for (JsonNode w : wanted) {
            boolean found = false;
            for (JsonNode h : have) {
                found |= h.equals(w);
            }
            if (!found) {
                have.add(w.deepCopy());
                changed = true;
            }
        }
        return changed;
    }

    private void run() {
        boolean done = ensure();
        synchronized (this) {
            if (done) {
                LOG.info("RBAC bootstrap policy in place: {} cluster roles, {} cluster role bindings",
                        policy.clusterRoles().size(), policy.clusterRoleBindings().size());
                onDone.run();
                return;
            }
            schedule(backoffMillis);
            backoffMillis = Math.min(backoffMillis * 2, MAX_BACKOFF_MILLIS);
        }
    }

    private void schedule(long delayMillis) {
        if (stopped) {
            return;
        }
        try {
            next = executor.schedule(this::run, delayMillis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            stopped = true; // the provider is going away
        }
    }
}
