package io.kubelix.api.registry;

/**
 * metav1.CreateOptions.
 *
 * @param dryRun       validate and admit, but store nothing
 * @param fieldManager the actor making the change, or null
 */
public record CreateOptions(boolean dryRun, String fieldManager) {
    public static final CreateOptions DEFAULT = new CreateOptions(false, null);
}
