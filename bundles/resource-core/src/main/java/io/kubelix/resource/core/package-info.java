/**
 * The core API group at {@code /api/v1}: namespaces, configmaps and secrets. Private to the bundle.
 *
 * <p>{@link io.kubelix.resource.core.CoreRESTStorageProvider} builds a generic Store per resource
 * from a strategy (defaults and kube's validation) and its printer columns; it also shares the
 * namespace Store with the {@link io.kubelix.resource.core.NamespaceLifecycle} admission plugin
 * through the bundle-private {@link io.kubelix.resource.core.NamespaceLister} service, and keeps
 * the system namespaces in place with {@link io.kubelix.resource.core.SystemNamespaces}.
 */
package io.kubelix.resource.core;
