package io.kubelix.api.registry;

/**
 * metav1.UpdateOptions.
 *
 * @param dryRun       validate and admit, but store nothing
 * @param fieldManager the actor making the change, or null
 */
public record UpdateOptions(boolean dryRun, String fieldManager) {
    public static final UpdateOptions DEFAULT = new UpdateOptions(false, null);
}
