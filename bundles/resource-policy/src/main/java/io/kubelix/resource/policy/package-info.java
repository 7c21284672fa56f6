/**
 * The policy API group at {@code /apis/policy/v1}: poddisruptionbudgets. Private to the bundle.
 *
 * <p>{@link io.kubelix.resource.policy.PolicyRESTStorageProvider} builds a generic Store for
 * poddisruptionbudgets with kube's validation, a status subresource and kube's printer columns.
 */
package io.kubelix.resource.policy;
