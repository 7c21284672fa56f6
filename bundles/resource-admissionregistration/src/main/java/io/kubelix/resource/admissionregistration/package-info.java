/**
 * The admissionregistration API group at {@code /apis/admissionregistration.k8s.io/v1}:
 * mutatingwebhookconfigurations, validatingwebhookconfigurations, validatingadmissionpolicies
 * (with {@code status}) and validatingadmissionpolicybindings, all cluster-scoped. Private to the
 * bundle.
 *
 * <p>These are objects only, with kube's defaults, validation and printer columns: no webhook is
 * called and no policy is evaluated yet, and CEL expressions are stored without being compiled.
 */
package io.kubelix.resource.admissionregistration;
