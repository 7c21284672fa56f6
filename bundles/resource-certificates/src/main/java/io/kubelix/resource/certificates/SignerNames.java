package io.kubelix.resource.certificates;

import io.kubelix.api.errors.FieldError;
import io.kubelix.api.validation.NameValidators;

import java.util.ArrayList;
import java.util.List;

/** The signer names kube knows, and its ValidateSignerName: {@code <domain>/<path>}. */
final class SignerNames {
    static final String KUBE_APISERVER_CLIENT = "kubernetes.io/kube-apiserver-client";
    static final String KUBE_APISERVER_CLIENT_KUBELET = "kubernetes.io/kube-apiserver-client-kubelet";
    static final String KUBELET_SERVING = "kubernetes.io/kubelet-serving";
    /** Refused by certificates.k8s.io/v1; only v1beta1 took it. */
    static final String LEGACY_UNKNOWN = "kubernetes.io/legacy-unknown";

    private SignerNames() {
    }

    /**
     * kube's ValidateSignerName: required; one '/'; the domain at most 253 characters, of DNS-1123
     * labels, at least two; the path of DNS-1123 subdomains separated by dots; at most 571 in all.
     */
    static List<FieldError> validate(String path, String signerName) {
        List<FieldError> errs = new ArrayList<>();
        if (signerName.isEmpty()) {
            errs.add(FieldError.required(path, ""));
            return errs;
        }
        String[] segments = signerName.split("/", -1);
        if (segments.length != 2) {
            errs.add(FieldError.invalid(path, signerName, "must be a fully qualified domain and path of the form "
                    + "'example.com/signer-name'"));
            return errs;
        }
        String domain = segments[0];
        if (domain.length() > NameValidators.DNS1123_SUBDOMAIN_MAX_LENGTH) {
            errs.add(FieldError.tooLong(path, "", NameValidators.DNS1123_SUBDOMAIN_MAX_LENGTH));
        }
        String[] domainLabels = domain.split("\\.", -1);
        for (String label : domainLabels) {
            List<String> bad = NameValidators.isDNS1123Label(label);
            if (!bad.isEmpty()) {
                bad.forEach(m -> errs.add(FieldError.invalid(path, domain, "validating label \"" + label + "\": " + m)));
                break;
            }
        }
        if (domainLabels.length < 2) {
            errs.add(FieldError.invalid(path, domain, "should be a domain with at least two segments separated by dots"));
        }
        for (String label : segments[1].split("\\.", -1)) {
            List<String> bad = NameValidators.isDNS1123Subdomain(label);
            if (!bad.isEmpty()) {
                bad.forEach(m -> errs.add(FieldError.invalid(path, segments[1], "validating label \"" + label + "\": " + m)));
                break;
            }
        }
        int max = NameValidators.DNS1123_SUBDOMAIN_MAX_LENGTH
                + NameValidators.DNS1123_SUBDOMAIN_MAX_LENGTH + NameValidators.DNS1123_LABEL_MAX_LENGTH + 1 + 1;
        if (signerName.length() > max) {
            errs.add(FieldError.tooLong(path, "", max));
        }
        return errs;
    }
}
