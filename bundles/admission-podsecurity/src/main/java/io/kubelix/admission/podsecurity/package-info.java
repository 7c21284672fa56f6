/**
 * The PodSecurity admission plugin (kube's {@code k8s.io/pod-security-admission}): the Pod Security
 * Standards' checks, the namespace labels that choose a level and version per mode, and the
 * admission of pods, pod-template workloads and namespaces. Exports nothing.
 */
package io.kubelix.admission.podsecurity;
