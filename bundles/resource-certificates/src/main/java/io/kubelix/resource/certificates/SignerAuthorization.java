package io.kubelix.resource.certificates;

import io.kubelix.api.authz.AuthorizationChain;
import io.kubelix.api.authz.AuthorizationDecision;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;

import java.util.List;

/**
 * kube's IsAuthorizedForSignerName (plugin/pkg/admission/certificates): whether a user may
 * {@code approve} or {@code sign} for a signer, asked of the authorizers as the verb on the
 * {@code signers} resource of certificates.k8s.io named by the signer name, or, failing that, by
 * its domain's wildcard {@code <domain>/*}. RBAC grants it with a rule such as
 * {@code resources: [signers], resourceNames: [kubernetes.io/kube-apiserver-client], verbs: [approve]}.
 */
final class SignerAuthorization {
    private final AuthorizationChain authorization;

    SignerAuthorization(AuthorizationChain authorization) {
        this.authorization = authorization;
    }

    /**
     * Refuses the write of the request {@code name} with kube's 403 unless {@code user} may
     * {@code verb} for {@code signerName}.
     */
    void require(UserInfo user, String verb, String signerName, String name) {
        if (!allowed(user, verb, signerName)) {
            throw StatusException.forbidden(CertificatesRESTStorageProvider.CSRS, name,
                    "user not permitted to " + verb + " requests with signerName \"" + signerName + "\"");
        }
    }

    boolean allowed(UserInfo user, String verb, String signerName) {
        if (allowedByName(user, verb, signerName)) {
            return true;
        }
        String domain = signerName.split("/", -1)[0];
        return allowedByName(user, verb, domain + "/*");
    }

    private boolean allowedByName(UserInfo user, String verb, String name) {
        RequestInfo request = new RequestInfo(true, "", verb, "apis", CertificatesRESTStorageProvider.GROUP, "*", "",
                "signers", "", name, List.of());
        return authorization.authorize(user, request).decision() == AuthorizationDecision.Decision.ALLOW;
    }
}
