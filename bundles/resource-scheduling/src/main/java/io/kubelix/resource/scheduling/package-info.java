/**
 * The scheduling.k8s.io API group at {@code /apis/scheduling.k8s.io/v1}: priorityclasses. Private to
 * the bundle.
 *
 * <p>{@link io.kubelix.resource.scheduling.SchedulingRESTStorageProvider} builds the Store from a
 * {@link io.kubelix.resource.scheduling.PriorityClassStrategy} (kube's defaults, validation and the
 * Priority admission plugin's single-default rule) and creates kube's two system priority classes
 * ({@link io.kubelix.resource.scheduling.SystemPriorityClasses}) once storage answers.
 * {@link io.kubelix.resource.scheduling.PriorityAdmission} is kube's Priority admission plugin for pods.
 */
package io.kubelix.resource.scheduling;
