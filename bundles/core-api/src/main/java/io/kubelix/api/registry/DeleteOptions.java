package io.kubelix.api.registry;

import io.kubelix.api.storage.Preconditions;

/**
 * metav1.DeleteOptions.
 *
 * @param dryRun             check and admit, but delete nothing
 * @param gracePeriodSeconds the grace period asked for, or null for the resource's default
 * @param preconditions      uid / resourceVersion the object must have
 * @param propagationPolicy  Orphan, Background or Foreground, or null
 */
public record DeleteOptions(boolean dryRun, Long gracePeriodSeconds, Preconditions preconditions, String propagationPolicy) {
    public static final DeleteOptions DEFAULT = new DeleteOptions(false, null, Preconditions.NONE, null);

    public DeleteOptions {
        preconditions = preconditions == null ? Preconditions.NONE : preconditions;
    }
}
