/**
 * The server's metrics: the Prometheus registry behind {@code /metrics}, kube-apiserver's request,
 * watch and storage metrics under kube's names, and the {@code MetricsRegistry} service plugins use.
 */
package io.kubelix.runtime.metrics;
