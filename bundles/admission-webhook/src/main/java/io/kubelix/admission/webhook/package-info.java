/**
 * The MutatingAdmissionWebhook and ValidatingAdmissionWebhook admission plugins
 * (k8s.io/apiserver/pkg/admission/plugin/webhook). Private to the bundle.
 */
package io.kubelix.admission.webhook;
