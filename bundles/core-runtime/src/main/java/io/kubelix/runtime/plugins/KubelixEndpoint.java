package io.kubelix.runtime.plugins;

import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
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

    /**
     * Whether {@code path} is {@code endpoint} (a trailing slash allowed), for a read-only endpoint.
     *
     * @throws StatusException 405 when it is, for a method other than GET and HEAD
     */
    static boolean isReadOf(Request request, String path, String endpoint) {
        if (!path.equals(endpoint) && !path.equals(endpoint + "/")) {
            return false;
        }
        if (!request.getMethod().equals("GET") && !request.getMethod().equals("HEAD")) {
            throw new StatusException(StatusReason.METHOD_NOT_ALLOWED,
                    "the server does not allow this method on the requested resource");
        }
        return true;
    }

    static boolean isKubelixPath(String path) {
        return path.equals(ROOT) || path.startsWith(ROOT + "/");
    }

    /** @return true when this endpoint answered {@code path} (and will complete {@code callback}) */
    boolean serve(Request request, Response response, Callback callback, String path);
}
