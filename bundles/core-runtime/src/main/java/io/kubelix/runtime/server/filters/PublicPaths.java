package io.kubelix.runtime.server.filters;

import java.util.Set;

/**
 * The endpoints anyone may read without credentials. Health ({@code /healthz}, {@code /livez},
 * {@code /readyz}) is always allowed, as kube-apiserver's default
 * {@code --authorization-always-allow-paths}; version is public too, through the
 * {@code system:public-info-viewer} role where anonymous requests are allowed, and here where
 * they are not.
 */
final class PublicPaths {
    private static final Set<String> HEALTH = Set.of("/healthz", "/livez", "/readyz");
    private static final String VERSION = "/version";

    private PublicPaths() {
    }

    /** Health and version. */
    static boolean isPublic(String path) {
        return isHealth(path) || under(path, VERSION);
    }

    /** The paths authorization always allows. */
    static boolean isHealth(String path) {
        for (String root : HEALTH) {
            if (under(path, root)) {
                return true;
            }
        }
        return false;
    }

    private static boolean under(String path, String root) {
        return path.equals(root) || path.startsWith(root + "/");
    }
}
