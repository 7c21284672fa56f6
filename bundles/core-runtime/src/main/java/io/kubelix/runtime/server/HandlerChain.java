package io.kubelix.runtime.server;

import io.kubelix.api.authn.Authenticator;
import io.kubelix.api.authz.Authorizer;
import io.kubelix.runtime.server.filters.WithAuthentication;
import io.kubelix.runtime.server.filters.WithAuthorization;
import io.kubelix.runtime.server.filters.WithPanicRecovery;
import io.kubelix.runtime.server.filters.WithRequestInfo;
import org.eclipse.jetty.server.Handler;

import java.util.List;
import java.util.function.Supplier;

/**
 * DefaultBuildHandlerChain: wraps the Director in the filters, outermost first.
 * <pre>
 * WithPanicRecovery
 *  └ WithRequestInfo
 *     └ WithAuthentication   (authenticators: whiteboard, by ranking)
 *        └ WithAuthorization (authorizers: whiteboard, by ranking)
 *           └ Director       (API paths → server chain; others → non-API mux)
 * </pre>
 */
final class HandlerChain {

    private HandlerChain() {
    }

    static Handler build(Handler director, Supplier<List<Authenticator>> authenticators,
                         Supplier<List<Authorizer>> authorizers) {
        Handler h = new WithAuthorization(director, authorizers);
        h = new WithAuthentication(h, authenticators);
        h = new WithRequestInfo(h);
        return new WithPanicRecovery(h);
    }
}
