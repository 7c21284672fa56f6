package io.kubelix.api.registry;

import io.kubelix.api.storage.Preconditions;

/**
 * metav1.DeleteOptions.
 *
 * @param dryRun             check and admit, but delete nothing
 * @param gracePeriodSeconds the grace period asked for, or null for the resource's default
 * @param preconditions      uid / resourceVersion the object must have
 * @param propagationPolicy  Orphan, Background or Foreground, or null
 * @param orphanDependents   the deprecated field that predates propagationPolicy: true is Orphan,
 *                           false is Background (and a pending delete is answered 202); null when unset
 */
public record DeleteOptions(boolean dryRun, Long gracePeriodSeconds, Preconditions preconditions, String propagationPolicy,
                            Boolean orphanDependents) {
    public static final DeleteOptions DEFAULT = new DeleteOptions(false, null, Preconditions.NONE, null, null);

    /** metav1.DeletePropagationOrphan: dependents are left behind (the {@code orphan} finalizer). */
    public static final String PROPAGATION_ORPHAN = "Orphan";
    /** metav1.DeletePropagationBackground: the object goes at once, dependents later. */
    public static final String PROPAGATION_BACKGROUND = "Background";
    /** metav1.DeletePropagationForeground: the object waits for its dependents ({@code foregroundDeletion}). */
    public static final String PROPAGATION_FOREGROUND = "Foreground";

    public DeleteOptions {
        preconditions = preconditions == null ? Preconditions.NONE : preconditions;
    }

    /** Options without the deprecated {@code orphanDependents}. */
    public DeleteOptions(boolean dryRun, Long gracePeriodSeconds, Preconditions preconditions, String propagationPolicy) {
        this(dryRun, gracePeriodSeconds, preconditions, propagationPolicy, null);
    }
}
