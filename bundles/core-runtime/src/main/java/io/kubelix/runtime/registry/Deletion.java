package io.kubelix.runtime.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.object.ObjectMeta;
import io.kubelix.api.object.Unstructured;
import io.kubelix.api.registry.DeleteOptions;
import io.kubelix.api.registry.RESTDeleteStrategy.GarbageCollectionPolicy;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupResource;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

/**
 * The steps of one delete of the generic Store, as kube-apiserver's rest.BeforeDelete and the
 * Store's updateForGracefulDeletionAndFinalizers take them: validate the options, check the
 * preconditions, decide between graceful and immediate deletion, set the garbage collector's
 * finalizers ({@code orphan}, {@code foregroundDeletion}) from the propagation policy, and mark an
 * object that finalizers keep.
 *
 * <p>An object given {@code orphan} or {@code foregroundDeletion} stays, marked for deletion,
 * until the garbage collector (or a client) removes that finalizer. The update function may run more than once (on conflicts); each run resets what it records.
 */
final class Deletion {
    private static final List<String> POLICIES = List.of(DeleteOptions.PROPAGATION_FOREGROUND,
            DeleteOptions.PROPAGATION_BACKGROUND, DeleteOptions.PROPAGATION_ORPHAN, "nil");

    enum Before {
        /** Delete at once (no graceful strategy, or an object whose grace period is over). */
        IMMEDIATE,
        /** The strategy asked for a grace period: deletionTimestamp was set into the future. */
        GRACEFUL,
        /** A graceful deletion is already under way and the new request does not shorten it. */
        PENDING
    }

    /** errDeleteNow: nothing keeps the object, so the update is abandoned and the object deleted. */
    static final class DeleteNow extends RuntimeException {
        private static final long serialVersionUID = 1L;

        DeleteNow() {
            super(null, null, false, false);
        }
    }

    /** errAlreadyDeleting: a graceful deletion is pending; the request changes nothing. */
    static final class AlreadyDeleting extends RuntimeException {
        private static final long serialVersionUID = 1L;

        AlreadyDeleting() {
            super(null, null, false, false);
        }
    }

    private final StoreSpec spec;
    private final RequestContext ctx;
    private final DeleteOptions options;
    private long lastGraceful;
    private boolean pendingFinalizers;

    Deletion(StoreSpec spec, RequestContext ctx, DeleteOptions options) {
        this.spec = spec;
        this.ctx = ctx;
        // rest.BeforeDelete: a negative grace period is taken as one second.
        this.options = options.gracePeriodSeconds() != null && options.gracePeriodSeconds() < 0
                ? new DeleteOptions(options.dryRun(), 1L, options.preconditions(), options.propagationPolicy(),
                options.orphanDependents())
                : options;
    }

    /**
     * ValidateDeleteOptions.
     *
     * @throws StatusException 422 on {@code DeleteOptions.meta.k8s.io}, with kube's field causes
     */
    static void validateOptions(DeleteOptions options) {
        List<FieldError> errs = new ArrayList<>();
        String policy = options.propagationPolicy();
        if (options.orphanDependents() != null && policy != null) {
            errs.add(FieldError.invalid("propagationPolicy", policy,
                    "orphanDependents and deletionPropagation cannot be both set"));
        }
        if (policy != null && !POLICIES.subList(0, 3).contains(policy)) {
            errs.add(FieldError.notSupported("propagationPolicy", policy, POLICIES));
        }
        if (!errs.isEmpty()) {
            throw StatusException.invalid("DeleteOptions", "meta.k8s.io", "", errs);
        }
    }

    /** rest.BeforeDelete on {@code obj} (changed in place when the deletion is graceful). */
    Before beforeDelete(ObjectNode obj) {
        ObjectMeta meta = Unstructured.wrap(obj).metadata();
        checkPreconditions(meta);
        JsonNode objGrace = meta.node().get("deletionGracePeriodSeconds");
        long currentGrace = objGrace == null || !objGrace.canConvertToLong() ? 0 : Math.max(objGrace.asLong(), 0);
        if (objGrace != null && objGrace.asLong() < 0) {
            meta.node().put("deletionGracePeriodSeconds", 1);
            currentGrace = 1;
        }
        if (meta.deletionTimestamp() != null) {
            // Only a graceful deletion leaves a grace period above zero; finalizer marks leave zero.
            if (currentGrace == 0) {
                return Before.IMMEDIATE;
            }
            Long asked = options.gracePeriodSeconds();
            if (asked == null || asked >= currentGrace) {
                return Before.PENDING;
            }
            Instant start = Instant.parse(meta.deletionTimestamp()).minusSeconds(currentGrace);
            meta.deletionTimestamp(start.plusSeconds(asked).toString());
            meta.node().put("deletionGracePeriodSeconds", asked);
            lastGraceful = asked;
            return Before.GRACEFUL;
        }
        Long grace = spec.deleteStrategy().checkGracefulDelete(ctx, obj, options);
        if (grace == null) {
            return Before.IMMEDIATE;
        }
        meta.deletionTimestamp(now().plusSeconds(grace).toString());
        meta.node().put("deletionGracePeriodSeconds", grace);
        if (meta.generation() > 0) {
            meta.generation(meta.generation() + 1);
        }
        lastGraceful = grace;
        return Before.GRACEFUL;
    }

    /**
     * The update function of updateForGracefulDeletionAndFinalizers, applied to the current
     * object: sets the garbage collector's finalizers, then marks the object as deleting when
     * finalizers keep it.
     *
     * @throws DeleteNow        when nothing keeps the object
     * @throws AlreadyDeleting  when a graceful deletion is already pending
     */
    ObjectNode markForDeletion(ObjectNode current) {
        lastGraceful = 0;
        Before before = beforeDelete(current);
        if (before == Before.PENDING) {
            throw new AlreadyDeleting();
        }
        // After the pending check: finalizers cannot be changed by DeleteOptions once deletion has started.
        List<String> finalizers = finalizersForGC(current);
        ObjectMeta meta = Unstructured.wrap(current).metadata();
        if (finalizers != null) {
            if (finalizers.isEmpty()) {
                meta.node().remove("finalizers");
            } else {
                ArrayNode list = meta.node().putArray("finalizers");
                finalizers.forEach(list::add);
            }
        }
        pendingFinalizers = !meta.finalizers().isEmpty() || spec.deleteStrategy().hasPendingFinalizers(current);
        if (before != Before.GRACEFUL) {
            if (!pendingFinalizers) {
                throw new DeleteNow();
            }
            markAsDeleting(meta);
            spec.deleteStrategy().prepareForDeletion(current);
        }
        return current;
    }

    /** Whether the object marked by {@link #markForDeletion} is to be deleted now (a zero grace period, no finalizers). */
    boolean deleteImmediately() {
        return !pendingFinalizers && lastGraceful == 0;
    }

    /**
     * deletionFinalizersForGarbageCollection: the finalizers {@code obj} should have after this
     * delete, or null when they stay as they are.
     */
    List<String> finalizersForGC(ObjectNode obj) {
        List<String> old = Unstructured.wrap(obj).metadata().finalizers();
        List<String> next = new ArrayList<>();
        for (String f : old) {
            if (!f.equals(ObjectMetaValidation.FINALIZER_ORPHAN) && !f.equals(ObjectMetaValidation.FINALIZER_FOREGROUND)) {
                next.add(f);
            }
        }
        GarbageCollectionPolicy policy = spec.deleteStrategy().defaultGarbageCollectionPolicy(ctx);
        if (shouldOrphanDependents(policy, old)) {
            next.add(ObjectMetaValidation.FINALIZER_ORPHAN);
        }
        if (shouldDeleteDependents(policy, old)) {
            next.add(ObjectMetaValidation.FINALIZER_FOREGROUND);
        }
        return new HashSet<>(old).equals(new HashSet<>(next)) ? null : next;
    }

    private boolean shouldOrphanDependents(GarbageCollectionPolicy policy, List<String> finalizers) {
        if (policy == GarbageCollectionPolicy.UNSUPPORTED) {
            return false;
        }
        // An explicit choice at deletion time overrides everything; the legacy field first.
        if (options.orphanDependents() != null) {
            return options.orphanDependents();
        }
        if (options.propagationPolicy() != null) {
            return options.propagationPolicy().equals(DeleteOptions.PROPAGATION_ORPHAN);
        }
        // Then a finalizer already on the object.
        for (String f : finalizers) {
            if (f.equals(ObjectMetaValidation.FINALIZER_ORPHAN)) {
                return true;
            }
            if (f.equals(ObjectMetaValidation.FINALIZER_FOREGROUND)) {
                return false;
            }
        }
        return policy == GarbageCollectionPolicy.ORPHAN_DEPENDENTS;
    }

    private boolean shouldDeleteDependents(GarbageCollectionPolicy policy, List<String> finalizers) {
        if (policy == GarbageCollectionPolicy.UNSUPPORTED || options.orphanDependents() != null) {
            return false;
        }
        if (options.propagationPolicy() != null) {
            return options.propagationPolicy().equals(DeleteOptions.PROPAGATION_FOREGROUND);
        }
        for (String f : finalizers) {
            if (f.equals(ObjectMetaValidation.FINALIZER_FOREGROUND)) {
                return true;
            }
            if (f.equals(ObjectMetaValidation.FINALIZER_ORPHAN)) {
                return false;
            }
        }
        return false;
    }

    /** markAsDeleting: deletionTimestamp now (unless set earlier), a zero grace period, and a generation bump once. */
    private static void markAsDeleting(ObjectMeta meta) {
        Instant now = now();
        String existing = meta.deletionTimestamp();
        if (existing == null && meta.generation() > 0) {
            meta.generation(meta.generation() + 1);
        }
        if (existing == null || Instant.parse(existing).isAfter(now)) {
            meta.deletionTimestamp(now.toString());
        }
        meta.node().put("deletionGracePeriodSeconds", 0);
    }

    /**
     * shouldDeleteDuringUpdate: an update that leaves no finalizer (nor one of the resource's own,
     * such as a namespace's spec.finalizers) on an object whose deletion has begun (with no grace
     * period left) deletes it.
     */
    static boolean shouldDeleteDuringUpdate(StoreSpec spec, ObjectNode obj, ObjectNode existing) {
        ObjectMeta oldMeta = Unstructured.wrap(existing).metadata();
        if (!Unstructured.wrap(obj).metadata().finalizers().isEmpty() || oldMeta.deletionTimestamp() == null
                || spec.deleteStrategy().hasPendingFinalizers(obj)) {
            return false;
        }
        JsonNode grace = oldMeta.node().get("deletionGracePeriodSeconds");
        return grace == null || grace.isNull() || grace.asLong() == 0;
    }

    /** The fail-early precondition check of rest.BeforeDelete, with its messages. */
    private void checkPreconditions(ObjectMeta meta) {
        GroupResource kind = GroupResource.of(spec.groupResource().group(), spec.kind());
        String uid = meta.uid() == null ? "" : meta.uid();
        String rv = meta.resourceVersion() == null ? "" : meta.resourceVersion();
        if (options.preconditions().uid() != null && !options.preconditions().uid().equals(uid)) {
            throw StatusException.conflict(kind, meta.name(), "the UID in the precondition ("
                    + options.preconditions().uid() + ") does not match the UID in record (" + uid
                    + "). The object might have been deleted and then recreated");
        }
        if (options.preconditions().resourceVersion() != null && !options.preconditions().resourceVersion().equals(rv)) {
            throw StatusException.conflict(kind, meta.name(), "the ResourceVersion in the precondition ("
                    + options.preconditions().resourceVersion() + ") does not match the ResourceVersion in record ("
                    + rv + "). The object might have been modified");
        }
    }

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.SECONDS);
    }
}
