/**
 * The core API group at {@code /api/v1}: namespaces, configmaps, secrets, events, services,
 * endpoints, serviceaccounts, persistentvolumes, persistentvolumeclaims, resourcequotas and
 * limitranges. Private to the bundle.
 *
 * <p>{@link io.kubelix.resource.core.CoreRESTStorageProvider} builds a generic Store per resource
 * from a strategy (defaults and kube's validation) and its printer columns; it also shares the
 * namespace Store with the {@link io.kubelix.resource.core.NamespaceLifecycle} admission plugin
 * through the bundle-private {@link io.kubelix.resource.core.NamespaceLister} service. (The system
 * namespaces are core-runtime's {@code start-system-namespaces-controller} post-start hook.)
 *
 * <p>Services are served through {@link io.kubelix.resource.core.ServiceREST}, which takes and gives
 * back cluster IPs and node ports ({@link io.kubelix.resource.core.ServiceAllocators}, persistent
 * bitmaps in {@link io.kubelix.resource.core.RangeAllocator}) around the generic Store's writes; the
 * ranges come from {@link io.kubelix.resource.core.ServiceNetworkConfig}.
 */
package io.kubelix.resource.core;
