package io.kubelix.runtime.server;

import io.kubelix.api.authz.AuthorizationChain;
import io.kubelix.runtime.metrics.RequestMetrics;
import io.kubelix.runtime.server.filters.WithAuthentication;
import io.kubelix.runtime.server.filters.WithAuthorization;
import io.kubelix.runtime.server.filters.WithImpersonation;
import io.kubelix.runtime.server.filters.WithPanicRecovery;
import io.kubelix.runtime.server.filters.WithRequestMetrics;
import io.kubelix.runtime.server.filters.WithRequestInfo;
import io.kubelix.runtime.server.filters.WithURIPolicy;
import org.eclipse.jetty.server.Handler;

/**
 * DefaultBuildHandlerChain: wraps the Director in the filters, outermost first.
 * <pre>
 * WithPanicRecovery
 *  └ WithURIPolicy                (malformed escapes in the query, dot segments in the path: 400)
 *     └ WithRequestInfo
 *        └ WithAuthentication      (authenticators: whiteboard, by ranking; no credentials: system:anonymous)
 *           └ WithImpersonation    (Impersonate-* headers: act as another user when allowed to)
 *              └ WithAuthorization (system:masters, then the authorization modes' authorizers)
 *                 └ WithRequestMetrics (apiserver_request_total, _duration_seconds, _response_sizes, long-running)
 *                    └ Director     (API paths → server chain; others → non-API mux)
 * </pre>
 */
final class HandlerChain {

    private HandlerChain() {
    }

    static Handler build(Handler director, Authentication authentication, AuthorizationChain authorization,
                         boolean anonymous, RequestMetrics metrics) {
        Handler h = new WithRequestMetrics(director, metrics);
        h = new WithAuthorization(h, authorization, anonymous);
        h = new WithImpersonation(h, authorization);
        h = new WithAuthentication(h, authentication::authenticate, anonymous);
        h = new WithRequestInfo(h);
        h = new WithURIPolicy(h);
        return new WithPanicRecovery(h);
    }
}
