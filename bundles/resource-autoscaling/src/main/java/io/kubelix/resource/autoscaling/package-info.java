/**
 * The autoscaling API group at {@code /apis/autoscaling/v2} and {@code /apis/autoscaling/v1}:
 * horizontalpodautoscalers. Private to the bundle.
 *
 * <p>{@link io.kubelix.resource.autoscaling.AutoscalingRESTStorageProvider} stores autoscalers as
 * {@code autoscaling/v2} objects ({@link io.kubelix.resource.autoscaling.HPAStrategy}: kube's
 * defaults and validation) and serves the same objects as {@code autoscaling/v1} through
 * {@link io.kubelix.resource.autoscaling.HPAV1Conversion}, as kube converts between the two versions.
 * There is no autoscaling controller: an autoscaler's status is what its {@code status} subresource
 * was last given.
 */
package io.kubelix.resource.autoscaling;
