/**
 * The flowcontrol.apiserver.k8s.io API group at {@code /apis/flowcontrol.apiserver.k8s.io/v1}:
 * flowschemas and prioritylevelconfigurations, the configuration API Priority and Fairness reads.
 * Private to the bundle.
 *
 * <p>{@link io.kubelix.resource.flowcontrol.FlowcontrolRESTStorageProvider} builds a Store for each
 * kind with its {@code status} subresource; {@link io.kubelix.resource.flowcontrol.FlowcontrolDefaults}
 * applies kube's v1 defaults, {@link io.kubelix.resource.flowcontrol.FlowSchemaValidation} and
 * {@link io.kubelix.resource.flowcontrol.PriorityLevelValidation} kube's validation, including the fixed
 * specs of the mandatory objects ({@link io.kubelix.resource.flowcontrol.MandatoryConfiguration}).
 * The bundle only serves the objects: creating kube's bootstrap objects and enforcing them belong to the
 * server.
 */
package io.kubelix.resource.flowcontrol;
