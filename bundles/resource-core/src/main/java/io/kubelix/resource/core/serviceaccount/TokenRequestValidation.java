package io.kubelix.resource.core.serviceaccount;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.errors.StatusException;
import io.kubelix.resource.core.common.Nodes;

import java.util.ArrayList;
import java.util.List;

/**
 * kube's checks of a TokenRequest: its name and namespace, when set, are the service account's
 * (TokenREST), and its lifetime is from 10 minutes to 2^32 seconds (ValidateTokenRequest). Errors
 * are 422s of {@code TokenRequest.authentication.k8s.io}, with kube's field paths and messages.
 */
final class TokenRequestValidation {
    static final long MIN_EXPIRATION_SECONDS = 10 * 60;
    static final long MAX_EXPIRATION_SECONDS = 1L << 32;
    private static final String KIND = "TokenRequest";
    private static final String GROUP = "authentication.k8s.io";

    private TokenRequestValidation() {
    }

    /** The body's name and namespace against the URL's; kube names the service account in the 422. */
    static void validateNames(ObjectNode request, String name, String namespace) {
        JsonNode meta = request.path("metadata");
        String bodyName = Nodes.text(meta, "name");
        if (!bodyName.isEmpty() && !bodyName.equals(name)) {
            throw StatusException.invalid(KIND, GROUP, name, List.of(FieldError.invalid("metadata.name", bodyName,
                    "must match the service account name if specified")));
        }
        String bodyNamespace = Nodes.text(meta, "namespace");
        if (!bodyNamespace.isEmpty() && !bodyNamespace.equals(namespace)) {
            throw StatusException.invalid(KIND, GROUP, name, List.of(FieldError.invalid("metadata.namespace",
                    bodyNamespace, "must match the service account namespace if specified")));
        }
    }

    /** The defaulted request's spec; kube's 422 names no object (its name is ""). */
    static void validate(ObjectNode request) {
        JsonNode expiration = request.path("spec").path("expirationSeconds");
        if (!expiration.canConvertToLong() || !expiration.isIntegralNumber()) {
            throw StatusException.badRequest("TokenRequest.spec.expirationSeconds must be an integer");
        }
        List<FieldError> errs = new ArrayList<>();
        long seconds = expiration.asLong();
        if (seconds < MIN_EXPIRATION_SECONDS) {
            errs.add(FieldError.invalid("spec.expirationSeconds", seconds, "may not specify a duration less than 10 minutes"));
        }
        if (seconds > MAX_EXPIRATION_SECONDS) {
            errs.add(FieldError.invalid("spec.expirationSeconds", seconds,
                    "may not specify a duration larger than 2^32 seconds"));
        }
        if (!errs.isEmpty()) {
            throw StatusException.invalid(KIND, GROUP, "", errs);
        }
    }
}
