package io.kubelix.runtime.server;

import io.kubelix.api.authz.AuthorizationChain;
import io.kubelix.runtime.audit.AuditOptions;
import io.kubelix.runtime.flowcontrol.PriorityAndFairness;
import io.kubelix.runtime.metrics.RequestMetrics;
import io.kubelix.runtime.server.filters.WithAudit;
import io.kubelix.runtime.server.filters.WithAuditInit;
import io.kubelix.runtime.server.filters.WithAuthentication;
import io.kubelix.runtime.server.filters.WithAuthorization;
import io.kubelix.runtime.server.filters.WithHTTPLogging;
import io.kubelix.runtime.server.filters.WithImpersonation;
import io.kubelix.runtime.metrics.InflightWatermark;
import io.kubelix.runtime.server.filters.WithMaxInFlightLimit;
import io.kubelix.runtime.server.filters.WithTimeout;
import io.kubelix.runtime.server.filters.WithPanicRecovery;
import io.kubelix.runtime.server.filters.WithPriorityAndFairness;
import io.kubelix.runtime.server.filters.WithRequestMetrics;
import io.kubelix.runtime.server.filters.WithRequestInfo;
import io.kubelix.runtime.server.filters.WithURIPolicy;
import io.kubelix.runtime.server.filters.WithWebSocketTunnel;
import org.eclipse.jetty.server.Handler;

/**
 * DefaultBuildHandlerChain: wraps the Director in the filters, outermost first.
 * <pre>
 * WithWebSocketTunnel             (a WebSocket over HTTP/2, an RFC 8441 CONNECT, seen as the GET it stands for)
 * └ WithAuditInit                  (the Audit-ID of every request and response)
 *  └ WithPanicRecovery
 *     └ WithURIPolicy                (malformed escapes in the query, dot segments in the path: 400)
 *        └ WithRequestInfo
 *           └ WithHTTPLogging        (-v=3: one line per request when it ends, as kube's httplog)
 *              └ WithTimeout         (--request-timeout: 504 Timeout for a request not answered in time, queued ones included)
 *                 └ WithAuthentication      (authenticators: whiteboard, by ranking; no credentials: system:anonymous)
 *                    └ WithAudit            (--audit-policy-file: the request's audit events; only with a policy and a backend)
 *                       └ WithImpersonation    (Impersonate-* headers: act as another user when allowed to)
 *                          └ WithPriorityAndFairness (--enable-priority-and-fairness: FlowSchemas, fair queues per level, 429)
 *                            or WithMaxInFlightLimit (without it: --max-requests-inflight, --max-mutating-requests-inflight, 429 beyond)
 *                             └ WithAuthorization (system:masters, then the authorization modes' authorizers)
 *                                └ WithRequestMetrics (apiserver_request_total, _duration_seconds, _response_sizes, long-running)
 *                                   └ Director     (API paths → server chain; others → non-API mux)
 * </pre>
 */
final class HandlerChain {

    private HandlerChain() {
    }

    static Handler build(Handler director, Authentication authentication, AuthorizationChain authorization,
                         boolean anonymous, RequestMetrics metrics) {
        return build(director, authentication, authorization, anonymous, metrics, Limits.NONE, null);
    }

    /**
     * kube-apiserver's server-wide limits.
     *
     * @param maxRequestsInflight         {@code --max-requests-inflight}; 0 for no limit
     * @param maxMutatingRequestsInflight {@code --max-mutating-requests-inflight}; 0 for no limit
     * @param requestTimeout              {@code --request-timeout}; zero for none
     * @param priorityAndFairness         the flow control in the place of the in-flight limits, or null
     */
    record Limits(int maxRequestsInflight, int maxMutatingRequestsInflight, java.time.Duration requestTimeout,
                  InflightWatermark readOnlyUse, InflightWatermark mutatingUse, PriorityAndFairness priorityAndFairness) {
        static final Limits NONE = new Limits(0, 0, java.time.Duration.ZERO, new InflightWatermark(), new InflightWatermark(),
                null);
    }

    /** @param audit the audit policy and backends, or null for no auditing */
    static Handler build(Handler director, Authentication authentication, AuthorizationChain authorization,
                         boolean anonymous, RequestMetrics metrics, Limits limits, AuditOptions.Audit audit) {
        Handler h = new WithRequestMetrics(director, metrics);
        h = new WithAuthorization(h, authorization, anonymous);
        if (limits.priorityAndFairness() != null) {
            h = new WithPriorityAndFairness(h, limits.priorityAndFairness(), metrics);
        } else {
            h = new WithMaxInFlightLimit(h, limits.maxRequestsInflight(), limits.maxMutatingRequestsInflight(), metrics,
                    limits.readOnlyUse(), limits.mutatingUse());
        }
        h = new WithImpersonation(h, authorization);
        if (audit != null) {
            WithAudit withAudit = new WithAudit(h, audit);
            h = new WithAuthentication(withAudit, authentication::authenticate, anonymous, withAudit::failedAuthentication);
        } else {
            h = new WithAuthentication(h, authentication::authenticate, anonymous);
        }
        // As kube's WithTimeoutForNonLongRunningRequests, outside authentication and flow control:
        // the time a request spends being authenticated or queued counts against its timeout.
        h = new WithTimeout(h, limits.requestTimeout(), metrics);
        h = new WithRequestInfo(new WithHTTPLogging(h));
        h = new WithURIPolicy(h);
        return new WithWebSocketTunnel(new WithAuditInit(new WithPanicRecovery(h)));
    }
}
