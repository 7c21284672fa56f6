package io.kubelix.authn.oidc;

import io.kubelix.api.request.UserInfo;
import io.kubelix.authn.oidc.IssuerVerifier.RefusedException;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** kube's claim mappings and claim validation rules, by claim or by CEL expression, applied to verified claims. */
final class ClaimMapping {
    private ClaimMapping() {
    }

    static UserInfo user(JwtIssuer issuer, Claims claims) throws RefusedException {
        ClaimExpressions cel = issuer.expressions();
        String username = cel.username != null ? cel.username(claims.values()) : username(issuer, claims);
        List<String> groups = issuer.groupsClaim().isEmpty() && cel.groups != null ? cel.groups(claims.values())
                : groups(issuer, claims);
        String uid = "";
        if (!issuer.uidClaim().isEmpty()) {
            try {
                uid = claims.string(issuer.uidClaim());
            } catch (RefusedException e) {
                throw new RefusedException("oidc: parse uid claim \"" + issuer.uidClaim() + "\": " + e.getMessage());
            }
        } else if (cel.uid != null) {
            uid = cel.uid(claims.values());
        }
        Map<String, List<String>> extra = new LinkedHashMap<>();
        for (ClaimExpressions.Extra e : cel.extra) {
            List<String> values = cel.extra(e, claims.values());
            if (!values.isEmpty()) {
                extra.put(e.key(), values);
            }
        }
        for (Map.Entry<String, String> required : issuer.requiredClaims().entrySet()) {
            String claim = required.getKey();
            if (!claims.has(claim)) {
                throw new RefusedException("oidc: required claim " + claim + " not present in ID token");
            }
            String value;
            try {
                value = claims.string(claim);
            } catch (RefusedException e) {
                throw new RefusedException("oidc: parse claim " + claim + ": " + e.getMessage());
            }
            if (!value.equals(required.getValue())) {
                throw new RefusedException("oidc: required claim " + claim + " value does not match. Got = " + value
                        + ", want = " + required.getValue());
            }
        }
        cel.checkClaims(claims.values());
        if (!cel.userRules.isEmpty()) {
            Map<String, Object> user = new LinkedHashMap<>();
            user.put("username", username);
            user.put("uid", uid);
            user.put("groups", groups);
            user.put("extra", extra);
            cel.checkUser(user);
        }
        List<String> all = new ArrayList<>(groups);
        if (!all.contains(UserInfo.ALL_AUTHENTICATED)) {
            all.add(UserInfo.ALL_AUTHENTICATED);
        }
        return new UserInfo(username, uid, all, extra);
    }

    private static String username(JwtIssuer issuer, Claims claims) throws RefusedException {
        String claim = issuer.usernameClaim();
        String username;
        try {
            username = claims.string(claim);
        } catch (RefusedException e) {
            throw new RefusedException("oidc: parse username claims \"" + claim + "\": " + e.getMessage());
        }
        if (claim.equals("email") && claims.has("email_verified")) {
            // OpenID Connect: an email_verified claim that is there must be true.
            Object verified = claims.get("email_verified");
            if (!(verified instanceof Boolean)) {
                throw new RefusedException("oidc: parse 'email_verified' claim: json: cannot unmarshal "
                        + Claims.jsonType(verified) + " into Go value of type bool");
            }
            if (!(Boolean) verified) {
                throw new RefusedException("oidc: email not verified");
            }
        }
        return issuer.usernamePrefix() + username;
    }

    /** A string claim is one group, as kube allows; a list is the groups. */
    private static List<String> groups(JwtIssuer issuer, Claims claims) throws RefusedException {
        String claim = issuer.groupsClaim();
        if (claim.isEmpty() || !claims.has(claim)) {
            return List.of();
        }
        Object value = claims.get(claim);
        List<String> groups = new ArrayList<>();
        if (value instanceof String s) {
            groups.add(s);
        } else if (value instanceof Collection<?> c && c.stream().allMatch(String.class::isInstance)) {
            c.forEach(g -> groups.add((String) g));
        } else {
            throw new RefusedException("oidc: parse groups claim \"" + claim + "\": json: cannot unmarshal "
                    + Claims.jsonType(value) + " into Go value of type string");
        }
        return groups.stream().map(g -> issuer.groupsPrefix() + g).toList();
    }
}
