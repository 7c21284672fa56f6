package io.kubelix.resource.certificates;

import io.kubelix.api.admission.AdmissionAttributes;
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
public final class CertificateApproval extends SignerAdmission {
    static final String NAME = "CertificateApproval";

    @Activate
    public CertificateApproval(@Reference AuthorizationChain authorization) {
        super(NAME, "approval", "approve", authorization);
    }

    @Override
    String signerName(AdmissionAttributes a) {
        return a.object().path("spec").path("signerName").asText("");
    }
}
