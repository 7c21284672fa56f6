package io.kubelix.api.storage;

/**
 * storage.GetOptions.
 *
 * @param ignoreNotFound  return null instead of failing when nothing is stored
 * @param resourceVersion "", "0" or "N" (not older than N)
 */
public record GetOptions(boolean ignoreNotFound, String resourceVersion) {
    public static final GetOptions DEFAULT = new GetOptions(false, "");

    public GetOptions {
        resourceVersion = resourceVersion == null ? "" : resourceVersion;
    }
}
