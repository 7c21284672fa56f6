package io.kubelix.api.registry;

/**
 * metav1.CreateOptions.
 *
 * @param dryRun       validate and admit, but store nothing
 * @param fieldManager    the actor making the change, or null
 * @param fieldValidation the request's {@code fieldValidation} as given ({@code Strict}, {@code Warn},
 *                        {@code Ignore}), or null; admission sees it in the options
 */
public record CreateOptions(boolean dryRun, String fieldManager, String fieldValidation) {
    public static final CreateOptions DEFAULT = new CreateOptions(false, null, null);

    /** Options without a {@code fieldValidation} (the 1.7 shape). */
    public CreateOptions(boolean dryRun, String fieldManager) {
        this(dryRun, fieldManager, null);
    }
}
