package io.kubelix.resource.certificates;

import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.ValidatingAdmissionPlugin;
import io.kubelix.api.authz.AuthorizationChain;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * kube's CertificateSigning admission plugin: a write to a request's {@code status} subresource
 * that changes {@code status.certificate} or {@code status.conditions} needs the {@code sign} verb
 * on the {@code signers} named by the stored signer name (or its domain's {@code <domain>/*});
 * otherwise it is 403.
 */
@Component(service = ValidatingAdmissionPlugin.class)
public final class CertificateSigning extends SignerAdmission {
    static final String NAME = "CertificateSigning";

    @Activate
    public CertificateSigning(@Reference AuthorizationChain authorization) {
        super(NAME, "status", "sign", authorization);
    }

    @Override
    String signerName(AdmissionAttributes a) {
        if (a.oldObject() == null
                || a.object().path("status").path("certificate").equals(a.oldObject().path("status").path("certificate"))
                && CSRConditions.of(a.object()).equals(CSRConditions.of(a.oldObject()))) {
            return null;
        }
        return a.oldObject().path("spec").path("signerName").asText("");
    }
}
