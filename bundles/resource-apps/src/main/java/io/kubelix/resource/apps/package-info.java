/**
 * The apps API group at {@code /apis/apps/v1}: deployments, replicasets, statefulsets, daemonsets
 * and controllerrevisions. Private to the bundle.
 *
 * <p>{@link io.kubelix.resource.apps.AppsRESTStorageProvider} builds a generic Store per resource
 * from a {@link io.kubelix.resource.apps.WorkloadStrategy} (kube's apps/v1 defaults, and the core/v1
 * pod template defaults and validation from core-api's {@code io.kubelix.api.core.v1}), with its
 * status subresource, a scale subresource where kube has one, and kube's printer columns.
 */
package io.kubelix.resource.apps;
