/**
 * The handler chain's filters, one per file, outermost first: WithPanicRecovery, WithRequestInfo,
 * WithAuthentication, WithAuthorization; the Director is last.
 */
package io.kubelix.runtime.server.filters;
