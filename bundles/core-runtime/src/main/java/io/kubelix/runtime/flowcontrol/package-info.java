/**
 * kube-apiserver's API Priority and Fairness: the bootstrap FlowSchemas and
 * PriorityLevelConfigurations, the classification of requests by FlowSchema, fair queuing with
 * shuffle sharding per priority level, the controller that follows the flowcontrol objects and the
 * post-start hook that keeps the bootstrap objects in storage.
 */
package io.kubelix.runtime.flowcontrol;
