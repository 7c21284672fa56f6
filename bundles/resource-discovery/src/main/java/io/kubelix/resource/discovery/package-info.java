/**
 * The discovery.k8s.io API group at {@code /apis/discovery.k8s.io/v1}: endpointslices. Private to
 * the bundle.
 *
 * <p>{@link io.kubelix.resource.discovery.DiscoveryRESTStorageProvider} builds a generic Store for
 * endpointslices with kube's port defaults, its validation of addresses per address type, ports and
 * endpoints, the immutable address type, and its printer columns.
 */
package io.kubelix.resource.discovery;
