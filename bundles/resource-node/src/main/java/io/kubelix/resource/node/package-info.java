/**
 * The node.k8s.io API group at {@code /apis/node.k8s.io/v1}: runtimeclasses, with kube's validation
 * ({@link io.kubelix.resource.node.RuntimeClassStrategy}). Private to the bundle.
 */
package io.kubelix.resource.node;
