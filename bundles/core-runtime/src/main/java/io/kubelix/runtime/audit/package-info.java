/**
 * kube-apiserver's auditing (k8s.io/apiserver's {@code pkg/audit}, {@code pkg/audit/policy} and
 * the log, webhook and buffered backends of {@code plugin/pkg/audit}): the {@code audit.k8s.io/v1}
 * Policy and its rule evaluator, the Event each request's stages produce, and the backends that
 * write events to a rotated log file or post them to a webhook. The filter that records a request
 * is {@code server.filters.WithAudit}.
 */
package io.kubelix.runtime.audit;
