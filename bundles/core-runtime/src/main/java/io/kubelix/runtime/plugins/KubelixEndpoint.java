package io.kubelix.runtime.plugins;

import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * A Kubelix-specific non-resource endpoint under {@code /kubelix/} (core-runtime internal). The
 * Director asks each in ranking order, after authentication and authorization, and answers 404
 * when none knows the path.
 */
public interface KubelixEndpoint {
    /** The root of these endpoints. */
    String ROOT = "/kubelix";

    static boolean isKubelixPath(String path) {
        return path.equals(ROOT) || path.startsWith(ROOT + "/");
    }

    /** @return true when this endpoint answered {@code path} (and will complete {@code callback}) */
    boolean serve(Request request, Response response, Callback callback, String path);
}
