/**
 * The coordination.k8s.io API group at {@code /apis/coordination.k8s.io/v1}: leases. Private to the
 * bundle.
 *
 * <p>{@link io.kubelix.resource.coordination.CoordinationRESTStorageProvider} builds a generic Store
 * for leases with kube's lease validation and its NAME, HOLDER, AGE printer columns.
 */
package io.kubelix.resource.coordination;
