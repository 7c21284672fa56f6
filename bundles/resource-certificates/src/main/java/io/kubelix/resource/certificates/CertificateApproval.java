package io.kubelix.resource.certificates;

import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.Operation;
import io.kubelix.api.admission.ValidatingAdmissionPlugin;
import io.kubelix.api.authz.AuthorizationChain;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * kube's CertificateApproval admission plugin: a write to a request's {@code approval} subresource
 * needs the {@code approve} verb on the {@code signers} named by the new object's signer name (or
 * its domain's {@code <domain>/*}); otherwise it is 403.
 */
@Component(service = ValidatingAdmissionPlugin.class)
public final class CertificateApproval implements ValidatingAdmissionPlugin {
    static final String NAME = "CertificateApproval";

    private final SignerAuthorization signers;

    @Activate
    public CertificateApproval(@Reference AuthorizationChain authorization) {
        this.signers = new SignerAuthorization(authorization);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean handles(Operation operation) {
        return operation == Operation.UPDATE;
    }

    @Override
    public void validate(AdmissionAttributes a) {
        if (!"approval".equals(a.subresource()) || !a.resource().groupResource().equals(CertificatesRESTStorageProvider.CSRS)
                || a.object() == null) {
            return;
        }
        signers.require(a.context().user(), "approve", a.object().path("spec").path("signerName").asText(""), a.name());
    }
}
