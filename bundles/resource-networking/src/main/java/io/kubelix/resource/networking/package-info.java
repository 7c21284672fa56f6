/**
 * The networking.k8s.io API group at {@code /apis/networking.k8s.io/v1}: ingresses,
 * ingressclasses and networkpolicies. Private to the bundle.
 *
 * <p>{@link io.kubelix.resource.networking.NetworkingRESTStorageProvider} builds a generic Store per
 * resource with kube's networking/v1 defaults and validation, the ingress status subresource, and
 * kube's printer columns and short names.
 */
package io.kubelix.resource.networking;
