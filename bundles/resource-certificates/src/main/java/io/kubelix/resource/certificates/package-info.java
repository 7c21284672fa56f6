/**
 * The certificates.k8s.io API group at {@code /apis/certificates.k8s.io/v1}: certificatesigningrequests.
 * Private to the bundle.
 *
 * <p>{@link io.kubelix.resource.certificates.CertificatesRESTStorageProvider} builds the Store from
 * {@link io.kubelix.resource.certificates.CSRStrategy} and its {@code status} and {@code approval}
 * subresources, with kube's validation ({@link io.kubelix.resource.certificates.CSRValidation}).
 * {@link io.kubelix.resource.certificates.CertificateApproval},
 * {@link io.kubelix.resource.certificates.CertificateSigning} and
 * {@link io.kubelix.resource.certificates.CertificateSubjectRestriction} are kube's admission plugins
 * of those names, and {@link io.kubelix.resource.certificates.CSRSigningController} issues the certificates of
 * the {@code kubernetes.io/kube-apiserver-client} signer.
 */
package io.kubelix.resource.certificates;
