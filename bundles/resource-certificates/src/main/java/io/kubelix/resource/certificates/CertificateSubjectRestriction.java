package io.kubelix.resource.certificates;

import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.Operation;
import io.kubelix.api.admission.ValidatingAdmissionPlugin;
import io.kubelix.api.errors.StatusException;
import io.kubelix.support.admission.guard.ObjectWrites;
import org.bouncycastle.asn1.x500.RDN;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x500.style.IETFUtils;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.osgi.service.component.annotations.Component;

/**
 * kube's CertificateSubjectRestriction admission plugin: a new request to the
 * {@code kubernetes.io/kube-apiserver-client} signer whose subject has the organization
 * {@code system:masters} is 403, so that no approval, however careless, issues a certificate that
 * bypasses authorization.
 */
@Component(service = ValidatingAdmissionPlugin.class)
public final class CertificateSubjectRestriction implements ValidatingAdmissionPlugin {
    static final String NAME = "CertificateSubjectRestriction";
    static final String MASTERS = "system:masters";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean handles(Operation operation) {
        return operation == Operation.CREATE;
    }

    @Override
    public void validate(AdmissionAttributes a) {
        if (!ObjectWrites.of(a, CertificatesRESTStorageProvider.CSRS.group(), CertificatesRESTStorageProvider.CSRS.resource())) {
            return;
        }
        String signerName = a.object().path("spec").path("signerName").asText("");
        if (!signerName.equals(SignerNames.KUBE_APISERVER_CLIENT)) {
            return;
        }
        PKCS10CertificationRequest request;
        try {
            request = PemBlocks.parseRequest(PemBlocks.bytes(a.object().path("spec").get("request")));
        } catch (IllegalArgumentException e) {
            return; // validation has refused it with kube's message
        }
        for (RDN rdn : request.getSubject().getRDNs(BCStyle.O)) {
            if (MASTERS.equals(IETFUtils.valueToString(rdn.getFirst().getValue()))) {
                throw StatusException.forbidden(CertificatesRESTStorageProvider.CSRS, a.name(),
                        "use of " + signerName + " signer with " + MASTERS + " group is not allowed");
            }
        }
    }
}
