package io.kubelix.resource.certificates;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.api.errors.FieldError;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * kube's CertificateSigningRequest validation (pkg/apis/certificates/validation) with its messages:
 * the request is a PEM {@code CERTIFICATE REQUEST} whose signature verifies, usages are given, known
 * and not repeated, the signer name is qualified (and not the legacy one), {@code expirationSeconds}
 * is at least 600, Approved and Denied exclude each other and each condition type appears once,
 * {@code status.certificate} is PEM certificates. An update may not remove a deciding condition,
 * add Approved or Denied except through {@code approval}, nor set the certificate except once
 * through {@code status}. As kube does, a rule an old object already broke is not held against its
 * updates ({@link Options#from}).
 */
final class CSRValidation {
    static final List<String> TRUE_ONLY = List.of("True");
    static final List<String> ALL_STATUSES = List.of("False", "True", "Unknown");
    static final Set<String> TRUE_ONLY_TYPES = Set.of(CSRConditions.APPROVED, CSRConditions.DENIED, CSRConditions.FAILED);
    static final long MIN_EXPIRATION_SECONDS = 600;

    /** What an update is allowed beyond a create; all false for a create. */
    record Options(boolean bothApprovedAndDenied, boolean legacySignerName, boolean duplicateConditionTypes,
                   boolean emptyConditionType, boolean arbitraryCertificate, boolean duplicateUsages,
                   boolean unknownUsages) {
        static final Options CREATE = new Options(false, false, false, false, false, false, false);

        /** kube's getValidationOptions: each rule relaxed when {@code old} already breaks it. */
        static Options from(JsonNode old) {
            if (old == null) {
                return CREATE;
            }
            List<String> usages = usages(old);
            boolean arbitrary;
            try {
                PemBlocks.checkCertificates(PemBlocks.bytes(old.path("status").get("certificate")));
                arbitrary = false;
            } catch (IllegalArgumentException e) {
                arbitrary = true;
            }
            Set<String> types = new HashSet<>();
            boolean duplicateTypes = false;
            boolean emptyType = false;
            for (JsonNode c : CSRConditions.of(old)) {
                String t = c.path("type").asText("");
                duplicateTypes |= !types.add(t);
                emptyType |= t.isEmpty();
            }
            return new Options(!CSRConditions.indices(old, CSRConditions.APPROVED).isEmpty()
                    && !CSRConditions.indices(old, CSRConditions.DENIED).isEmpty(),
                    SignerNames.LEGACY_UNKNOWN.equals(old.path("spec").path("signerName").asText("")),
                    duplicateTypes, emptyType, arbitrary, new HashSet<>(usages).size() != usages.size(),
                    !KeyUsages.ALL.containsAll(usages));
        }
    }

    /** Which subresource an update comes through: what it may change besides metadata. */
    enum Update { MAIN, STATUS, APPROVAL }

    private CSRValidation() {
    }

    static List<String> usages(JsonNode csr) {
        List<String> usages = new ArrayList<>();
        csr.path("spec").path("usages").forEach(u -> usages.add(u.asText("")));
        return usages;
    }

    /** ValidateCertificateSigningRequestCreate, and the part every update repeats. */
    static List<FieldError> validate(JsonNode csr, Options opts) {
        List<FieldError> errs = new ArrayList<>();
        JsonNode spec = csr.path("spec");
        try {
            PemBlocks.parseRequest(PemBlocks.bytes(spec.get("request")));
        } catch (IllegalArgumentException e) {
            errs.add(FieldError.invalid("spec.request", spec.path("request").asText(""), e.getMessage()));
        }
        List<String> usages = usages(csr);
        if (usages.isEmpty()) {
            errs.add(FieldError.required("spec.usages", "usages must be provided"));
        }
        if (!opts.unknownUsages()) {
            for (int i = 0; i < usages.size(); i++) {
                if (!KeyUsages.ALL.contains(usages.get(i))) {
                    errs.add(FieldError.notSupported("spec.usages[" + i + "]", usages.get(i), KeyUsages.ALL));
                }
            }
        }
        if (!opts.duplicateUsages()) {
            Set<String> seen = new HashSet<>();
            for (int i = 0; i < usages.size(); i++) {
                if (!seen.add(usages.get(i))) {
                    errs.add(FieldError.duplicate("spec.usages[" + i + "]", usages.get(i)));
                }
            }
        }
        String signerName = spec.path("signerName").asText("");
        if (!opts.legacySignerName() && signerName.equals(SignerNames.LEGACY_UNKNOWN)) {
            errs.add(FieldError.invalid("spec.signerName", signerName, "the legacy signerName is not allowed via this API version"));
        } else {
            errs.addAll(SignerNames.validate("spec.signerName", signerName));
        }
        JsonNode expiration = spec.get("expirationSeconds");
        if (expiration != null && !expiration.isNull() && expiration.asLong() < MIN_EXPIRATION_SECONDS) {
            errs.add(FieldError.invalid("spec.expirationSeconds", expiration.asLong(),
                    "may not specify a duration less than 600 seconds (10 minutes)"));
        }
        errs.addAll(validateConditions(csr, opts));
        if (!opts.arbitraryCertificate()) {
            try {
                PemBlocks.checkCertificates(PemBlocks.bytes(csr.path("status").get("certificate")));
            } catch (IllegalArgumentException e) {
                errs.add(FieldError.invalid("status.certificate", "<certificate data>", e.getMessage()));
            }
        }
        return errs;
    }

    private static List<FieldError> validateConditions(JsonNode csr, Options opts) {
        List<FieldError> errs = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        boolean approved = false;
        boolean denied = false;
        JsonNode conditions = CSRConditions.of(csr);
        for (int i = 0; i < conditions.size(); i++) {
            String p = "status.conditions[" + i + "]";
            String type = conditions.get(i).path("type").asText("");
            String status = conditions.get(i).path("status").asText("");
            if (!opts.emptyConditionType() && type.isEmpty()) {
                errs.add(FieldError.required(p + ".type", ""));
            }
            List<String> allowed = TRUE_ONLY_TYPES.contains(type) ? TRUE_ONLY : ALL_STATUSES;
            if (status.isEmpty()) {
                errs.add(FieldError.required(p + ".status", ""));
            } else if (!allowed.contains(status)) {
                errs.add(FieldError.notSupported(p + ".status", status, allowed));
            }
            if (!opts.bothApprovedAndDenied()) {
                if (type.equals(CSRConditions.APPROVED)) {
                    approved = true;
                    if (denied) {
                        errs.add(FieldError.invalid(p + ".type", type, "Approved and Denied conditions are mutually exclusive"));
                    }
                } else if (type.equals(CSRConditions.DENIED)) {
                    denied = true;
                    if (approved) {
                        errs.add(FieldError.invalid(p + ".type", type, "Approved and Denied conditions are mutually exclusive"));
                    }
                }
            }
            if (!opts.duplicateConditionTypes() && !seen.add(type)) {
                errs.add(FieldError.duplicate(p + ".type", type));
            }
        }
        return errs;
    }

    /** kube's ValidateCertificateSigningRequest{,Status,Approval}Update, after the Store checked metadata. */
    static List<FieldError> validateUpdate(JsonNode csr, JsonNode old, Update through) {
        List<FieldError> errs = validate(csr, Options.from(old));
        for (String type : List.of(CSRConditions.APPROVED, CSRConditions.DENIED, CSRConditions.FAILED)) {
            if (CSRConditions.indices(csr, type).size() < CSRConditions.indices(old, type).size()) {
                errs.add(FieldError.forbidden("status.conditions", "updates may not remove a condition of type \"" + type + "\""));
            }
        }
        if (through != Update.APPROVAL) {
            for (String type : List.of(CSRConditions.APPROVED, CSRConditions.DENIED)) {
                if (CSRConditions.indices(csr, type).size() > CSRConditions.indices(old, type).size()) {
                    errs.add(FieldError.forbidden("status.conditions", "updates may not add a condition of type \"" + type + "\""));
                }
            }
        }
        byte[] certificate = PemBlocks.bytes(csr.path("status").get("certificate"));
        byte[] oldCertificate = PemBlocks.bytes(old.path("status").get("certificate"));
        if (through != Update.STATUS) {
            if (!Arrays.equals(certificate, oldCertificate)) {
                errs.add(FieldError.forbidden("status.certificate", "updates may not set certificate content"));
            }
        } else if (oldCertificate.length > 0 && !Arrays.equals(certificate, oldCertificate)) {
            errs.add(FieldError.forbidden("status.certificate", "updates may not modify existing certificate content"));
        }
        return errs;
    }
}
