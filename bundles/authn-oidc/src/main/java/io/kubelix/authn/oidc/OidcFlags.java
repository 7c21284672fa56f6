package io.kubelix.authn.oidc;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * kube-apiserver's legacy {@code --oidc-*} flags, turned into one {@link JwtIssuer} as kube turns
 * them into a JWT authenticator: the username claim defaults to {@code sub}, and a username claim
 * other than {@code email} is prefixed with {@code <issuer-url>#} unless a prefix is given
 * ({@code -} for none).
 */
final class OidcFlags {
    private OidcFlags() {
    }

    /**
     * @param flag a flag's value by name without {@code --} ({@code oidc-issuer-url}), or null when unset
     * @return the issuer, or null when {@code --oidc-issuer-url} is unset
     * @throws IllegalArgumentException naming the flag that is wrong
     */
    static JwtIssuer issuer(UnaryOperator<String> flag, java.util.function.Function<String, String> readFile) {
        String url = value(flag, "oidc-issuer-url");
        if (url.isEmpty()) {
            for (String other : List.of("oidc-client-id", "oidc-ca-file", "oidc-username-claim", "oidc-groups-claim",
                    "oidc-required-claim")) {
                if (!value(flag, other).isEmpty()) {
                    throw new IllegalArgumentException("--" + other + " needs --oidc-issuer-url");
                }
            }
            return null;
        }
        List<String> errors = new ArrayList<>();
        AuthenticationConfiguration.checkIssuerUrl("--oidc-issuer-url", url, errors);
        if (!errors.isEmpty()) {
            throw new IllegalArgumentException(String.join(", ", errors));
        }
        String clientId = value(flag, "oidc-client-id");
        if (clientId.isEmpty()) {
            throw new IllegalArgumentException("oidc-issuer-url and oidc-client-id must be specified together");
        }
        String usernameClaim = value(flag, "oidc-username-claim");
        if (usernameClaim.isEmpty()) {
            usernameClaim = "sub";
        }
        String usernamePrefix = value(flag, "oidc-username-prefix");
        if (usernamePrefix.isEmpty() && !usernameClaim.equals("email")) {
            usernamePrefix = url + "#";
        } else if (usernamePrefix.equals("-")) {
            usernamePrefix = "";
        }
        Map<String, String> required = new LinkedHashMap<>();
        for (String pair : list(value(flag, "oidc-required-claim"))) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("--oidc-required-claim \"" + pair + "\": must be key=value");
            }
            required.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
        List<String> algs = list(value(flag, "oidc-signing-algs"));
        for (String alg : algs) {
            if (!JwtIssuer.ALLOWED_ALGS.contains(alg)) {
                throw new IllegalArgumentException("oidc: unsupported signing alg: \"" + alg + "\"");
            }
        }
        String caFile = value(flag, "oidc-ca-file");
        return new JwtIssuer(url, "", caFile.isEmpty() ? "" : readFile.apply(caFile), List.of(clientId), usernameClaim,
                usernamePrefix, value(flag, "oidc-groups-claim"), value(flag, "oidc-groups-prefix"), "", required,
                algs.isEmpty() ? List.of("RS256") : algs, ClaimExpressions.NONE);
    }

    private static String value(UnaryOperator<String> flag, String name) {
        String v = flag.apply(name);
        return v == null ? "" : v.trim();
    }

    private static List<String> list(String value) {
        return value.isEmpty() ? List.of() : Arrays.stream(value.split(",")).map(String::trim)
                .filter(s -> !s.isEmpty()).toList();
    }
}
