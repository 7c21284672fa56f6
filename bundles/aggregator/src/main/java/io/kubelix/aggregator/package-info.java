/**
 * kube-aggregator as a plugin: {@code /apis/apiregistration.k8s.io/v1} apiservices, and the link at
 * the front of the server chain that proxies the requests of a remote APIService's group and
 * version to the extension API server behind its service. Private to the bundle.
 */
package io.kubelix.aggregator;
