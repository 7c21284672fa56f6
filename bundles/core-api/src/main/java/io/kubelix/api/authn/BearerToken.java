package io.kubelix.api.authn;

import java.util.Optional;

/**
 * The token of an {@code Authorization: Bearer <token>} header, as k8s' bearertoken
 * authenticator reads it: the scheme is case-insensitive and surrounding blanks are ignored.
 */
public final class BearerToken {

    private BearerToken() {
    }

    /** The token, or empty when the header is absent, another scheme, or has an empty token. */
    public static Optional<String> from(String authorization) {
        if (authorization == null) {
            return Optional.empty();
        }
        String value = authorization.trim();
        int end = 0;
        while (end < value.length() && !Character.isWhitespace(value.charAt(end))) {
            end++;
        }
        if (end == value.length() || !value.substring(0, end).equalsIgnoreCase("bearer")) {
            return Optional.empty();
        }
        String token = value.substring(end).trim();
        return token.isEmpty() ? Optional.empty() : Optional.of(token);
    }
}
