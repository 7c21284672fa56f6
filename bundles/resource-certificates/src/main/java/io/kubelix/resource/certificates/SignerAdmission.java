package io.kubelix.resource.certificates;

import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.Operation;
import io.kubelix.api.admission.ValidatingAdmissionPlugin;
import io.kubelix.api.authz.AuthorizationChain;

/**
 * What kube's CertificateApproval and CertificateSigning admission plugins share: an update of one
 * subresource of a certificate signing request needs a verb on its signer ({@link SignerAuthorization}).
 * Each says which signer name is asked about, if any.
 */
abstract class SignerAdmission implements ValidatingAdmissionPlugin {
    private final String name;
    private final String subresource;
    private final String verb;
    private final SignerAuthorization signers;

    SignerAdmission(String name, String subresource, String verb, AuthorizationChain authorization) {
        this.name = name;
        this.subresource = subresource;
        this.verb = verb;
        this.signers = new SignerAuthorization(authorization);
    }

    /** The signer name the write is checked against, or null when it needs no check. */
    abstract String signerName(AdmissionAttributes a);

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final boolean handles(Operation operation) {
        return operation == Operation.UPDATE;
    }

    @Override
    public final void validate(AdmissionAttributes a) {
        if (!subresource.equals(a.subresource()) || !a.resource().groupResource().equals(CertificatesRESTStorageProvider.CSRS)
                || a.object() == null) {
            return;
        }
        String signerName = signerName(a);
        if (signerName != null) {
            signers.require(a.context().user(), verb, signerName, a.name());
        }
    }
}
