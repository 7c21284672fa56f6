/**
 * The RBAC API group at {@code /apis/rbac.authorization.k8s.io/v1}: roles and rolebindings
 * (namespaced), clusterroles and clusterrolebindings (cluster-scoped). Private to the bundle.
 *
 * <p>{@link io.kubelix.resource.rbac.RbacRESTStorageProvider} builds a generic Store per resource
 * with kube's defaults, validation ({@link io.kubelix.resource.rbac.RbacValidation}) and printer
 * columns, and keeps kube's default cluster roles and bindings in place
 * ({@link io.kubelix.resource.rbac.PolicyReconciler}). These are objects only: no authorizer reads
 * them yet, so kube's escalation checks on create and update are not made.
 */
package io.kubelix.resource.rbac;
