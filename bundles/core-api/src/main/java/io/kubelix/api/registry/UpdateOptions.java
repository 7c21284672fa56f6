package io.kubelix.api.registry;

/**
 * metav1.UpdateOptions.
 *
 * @param dryRun       validate and admit, but store nothing
 * @param fieldManager    the actor making the change, or null
 * @param fieldValidation the request's {@code fieldValidation} as given ({@code Strict}, {@code Warn},
 *                        {@code Ignore}), or null; admission sees it in the options
 */
public record UpdateOptions(boolean dryRun, String fieldManager, String fieldValidation) {
    public static final UpdateOptions DEFAULT = new UpdateOptions(false, null, null);

    /** Options without a {@code fieldValidation} (the 1.7 shape). */
    public UpdateOptions(boolean dryRun, String fieldManager) {
        this(dryRun, fieldManager, null);
    }
}
