/**
 * First start: the data directory with the cluster CA, the serving certificate, the admin token
 * and {@code admin.kubeconfig}, created when missing and reused when present, so the server is
 * TLS-only and authenticated from its first request. Private to core-runtime.
 */
package io.kubelix.runtime.bootstrap;
