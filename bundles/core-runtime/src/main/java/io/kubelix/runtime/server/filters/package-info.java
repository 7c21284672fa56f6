/**
 * The handler chain's filters, one per file, outermost first: WithAuditInit, WithPanicRecovery,
 * WithURIPolicy, WithRequestInfo, WithAuthentication, WithAudit, WithImpersonation,
 * WithMaxInFlightLimit, WithAuthorization, WithTimeout, WithRequestMetrics; the Director is last.
 */
package io.kubelix.runtime.server.filters;
