package io.kubelix.runtime.server.filters;

import java.util.Set;

/**
 * The endpoints anyone may read without credentials: health and version, as kube-apiserver's
 * {@code system:public-info-viewer} role and {@code --authorization-always-allow-paths} allow.
 */
final class PublicPaths {
    private static final Set<String> ROOTS = Set.of("/healthz", "/livez", "/readyz", "/version");

    private PublicPaths() {
    }

    static boolean isPublic(String path) {
        for (String root : ROOTS) {
            if (path.equals(root) || path.startsWith(root + "/")) {
                return true;
            }
        }
        return false;
    }
}
