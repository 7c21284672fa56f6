package io.kubelix.authn.oidc;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.kubelix.support.cel.CelExpression;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * kube's {@code apiserver.config.k8s.io} {@code AuthenticationConfiguration} file
 * ({@code --authentication-config}), its {@code jwt} authenticators validated as kube validates them,
 * with kube's field paths in the messages; their CEL expressions are compiled here, so one that does
 * not compile is refused with the compiler's message.
 */
final class AuthenticationConfiguration {
    static final Set<String> API_VERSIONS = Set.of("apiserver.config.k8s.io/v1", "apiserver.config.k8s.io/v1beta1",
            "apiserver.config.k8s.io/v1alpha1");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private AuthenticationConfiguration() {
    }

    /**
     * Parses the file's text (YAML or JSON).
     *
     * @throws IllegalArgumentException listing every problem, as kube's aggregated field errors
     */
    static List<JwtIssuer> parse(String text) {
        JsonNode root;
        try {
            root = YAML.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not YAML or JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new IllegalArgumentException("not YAML or JSON: " + e.getMessage());
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("not an AuthenticationConfiguration object");
        }
        String apiVersion = root.path("apiVersion").asText("");
        String kind = root.path("kind").asText("");
        if (!kind.equals("AuthenticationConfiguration") || !API_VERSIONS.contains(apiVersion)) {
            throw new IllegalArgumentException("expected kind AuthenticationConfiguration of apiVersion "
                    + "apiserver.config.k8s.io/v1 (or v1beta1, v1alpha1), got kind \"" + kind + "\" apiVersion \""
                    + apiVersion + "\"");
        }
        List<String> errors = new ArrayList<>();
        List<JwtIssuer> issuers = new ArrayList<>();
        JsonNode jwt = root.path("jwt");
        Set<String> seen = new java.util.HashSet<>();
        for (int i = 0; i < jwt.size(); i++) {
            JwtIssuer issuer = jwtAuthenticator("jwt[" + i + "]", jwt.get(i), errors);
            if (issuer != null && !issuer.url().isEmpty() && !seen.add(issuer.url())) {
                errors.add("jwt[" + i + "].issuer.url: Duplicate value: \"" + issuer.url() + "\"");
            } else if (issuer != null) {
                issuers.add(issuer);
            }
        }
        if (!errors.isEmpty()) {
            throw new IllegalArgumentException(String.join(", ", errors));
        }
        return issuers;
    }

    private static JwtIssuer jwtAuthenticator(String path, JsonNode a, List<String> errors) {
        int before = errors.size();
        JsonNode issuer = a.path("issuer");
        String url = issuer.path("url").asText("");
        checkIssuerUrl(path + ".issuer.url", url, errors);
        String discovery = issuer.path("discoveryURL").asText("");
        if (!discovery.isEmpty()) {
            checkHttps(path + ".issuer.discoveryURL", discovery, errors);
            if (discovery.equals(url)) {
                errors.add(path + ".issuer.discoveryURL: Invalid value: \"" + discovery
                        + "\": discoveryURL must be different from URL");
            }
        }
        List<String> audiences = strings(issuer.path("audiences"));
        if (audiences.isEmpty()) {
            errors.add(path + ".issuer.audiences: Required value: at least one " + path + ".issuer.audiences is required");
        }
        String policy = issuer.path("audienceMatchPolicy").asText("");
        if (!policy.isEmpty() && !policy.equals("MatchAny")) {
            errors.add(path + ".issuer.audienceMatchPolicy: Unsupported value: \"" + policy
                    + "\": supported values: \"MatchAny\"");
        }
        if (audiences.size() > 1 && !policy.equals("MatchAny")) {
            errors.add(path + ".issuer.audienceMatchPolicy: Invalid value: \"" + policy
                    + "\": audienceMatchPolicy must be MatchAny for multiple audiences");
        }

        JsonNode mappings = a.path("claimMappings");
        JsonNode username = mappings.path("username");
        String usernameClaim = username.path("claim").asText("");
        CelExpression usernameExpression = mapping(path + ".claimMappings.username", username, true, errors);
        JsonNode groups = mappings.path("groups");
        String groupsClaim = groups.path("claim").asText("");
        CelExpression groupsExpression = mapping(path + ".claimMappings.groups", groups, false, errors);
        JsonNode uid = mappings.path("uid");
        CelExpression uidExpression = null;
        if (uid.has("claim") && uid.has("expression")) {
            errors.add(path + ".claimMappings.uid: Invalid value: \"\": claim and expression can't both be set");
        } else if (uid.has("expression")) {
            uidExpression = ClaimExpressions.compile(ClaimExpressions.CLAIMS, path + ".claimMappings.uid.expression",
                    uid.path("expression").asText(""), errors);
        }
        List<ClaimExpressions.Extra> extra = new ArrayList<>();
        Set<String> extraKeys = new java.util.HashSet<>();
        JsonNode extras = mappings.path("extra");
        for (int i = 0; i < extras.size(); i++) {
            String extraPath = path + ".claimMappings.extra[" + i + "]";
            String key = extras.get(i).path("key").asText("");
            String value = extras.get(i).path("valueExpression").asText("");
            if (key.isEmpty()) {
                errors.add(extraPath + ".key: Required value: key is required");
            } else if (!key.equals(key.toLowerCase(java.util.Locale.ROOT))) {
                errors.add(extraPath + ".key: Invalid value: \"" + key + "\": key must be lowercase");
            } else if (key.indexOf('/') <= 0) {
                errors.add(extraPath + ".key: Invalid value: \"" + key + "\": must be a domain-prefixed path (such as "
                        + "\"acme.io/foo\")");
            } else if (!extraKeys.add(key)) {
                errors.add(extraPath + ".key: Duplicate value: \"" + key + "\"");
            }
            if (value.isEmpty()) {
                errors.add(extraPath + ".valueExpression: Required value: valueExpression is required");
                continue;
            }
            CelExpression compiled = ClaimExpressions.compile(ClaimExpressions.CLAIMS, extraPath + ".valueExpression",
                    value, errors);
            if (compiled != null) {
                extra.add(new ClaimExpressions.Extra(key, compiled));
            }
        }
        Map<String, String> required = new LinkedHashMap<>();
        List<ClaimExpressions.Rule> claimRules = new ArrayList<>();
        JsonNode rules = a.path("claimValidationRules");
        for (int i = 0; i < rules.size(); i++) {
            JsonNode rule = rules.get(i);
            String rulePath = path + ".claimValidationRules[" + i + "]";
            String claim = rule.path("claim").asText("");
            if (rule.has("expression")) {
                if (!claim.isEmpty() || rule.has("requiredValue")) {
                    errors.add(rulePath + ": Invalid value: \"\": claim and expression can't both be set");
                    continue;
                }
                CelExpression compiled = ClaimExpressions.compile(ClaimExpressions.CLAIMS, rulePath + ".expression",
                        rule.path("expression").asText(""), errors);
                if (compiled != null) {
                    claimRules.add(new ClaimExpressions.Rule(compiled, rule.path("message").asText("")));
                }
                continue;
            }
            if (claim.isEmpty()) {
                errors.add(rulePath + ".claim: Required value: claim or expression is required");
            } else if (required.containsKey(claim)) {
                errors.add(rulePath + ".claim: Duplicate value: \"" + claim + "\"");
            } else {
                required.put(claim, rule.path("requiredValue").asText(""));
            }
        }
        List<ClaimExpressions.Rule> userRules = new ArrayList<>();
        JsonNode userValidation = a.path("userValidationRules");
        for (int i = 0; i < userValidation.size(); i++) {
            JsonNode rule = userValidation.get(i);
            CelExpression compiled = ClaimExpressions.compile(ClaimExpressions.USER,
                    path + ".userValidationRules[" + i + "].expression", rule.path("expression").asText(""), errors);
            if (compiled != null) {
                userRules.add(new ClaimExpressions.Rule(compiled, rule.path("message").asText("")));
            }
        }
        // kube's rule: a user name taken from claims.email must be checked against claims.email_verified.
        if (usernameExpression != null && usesEmail(usernameExpression.source())
                && !mentionsEmailVerified(usernameExpression, extra, claimRules)) {
            errors.add(path + ".claimMappings.username.expression: Invalid value: \"" + usernameExpression.source()
                    + "\": claims.email_verified must be used in claimMappings.username.expression or "
                    + "claimMappings.extra[*].valueExpression or claimValidationRules[*].expression when claims.email "
                    + "is used in claimMappings.username.expression");
        }
        if (errors.size() > before) {
            return null;
        }
        ClaimExpressions expressions = usernameExpression == null && groupsExpression == null && uidExpression == null
                && extra.isEmpty() && claimRules.isEmpty() && userRules.isEmpty() ? ClaimExpressions.NONE
                : new ClaimExpressions(usernameExpression, groupsExpression, uidExpression, extra, claimRules, userRules);
        return new JwtIssuer(url, discovery, issuer.path("certificateAuthority").asText(""), audiences, usernameClaim,
                username.path("prefix").asText(""), groupsClaim, groups.path("prefix").asText(""),
                uid.path("claim").asText(""), required, List.of("RS256"), expressions);
    }

    /**
     * A username or groups mapping: a claim with a prefix, or an expression without one; the
     * username needs one of them.
     */
    private static CelExpression mapping(String path, JsonNode mapping, boolean required, List<String> errors) {
        boolean claim = !mapping.path("claim").asText("").isEmpty();
        boolean expression = mapping.has("expression");
        if (claim && expression) {
            errors.add(path + ": Invalid value: \"\": claim and expression can't both be set");
            return null;
        }
        if (required && !claim && !expression) {
            errors.add(path + ": Required value: claim or expression is required");
            return null;
        }
        if (claim && !mapping.has("prefix")) {
            errors.add(path + ".prefix: Required value: prefix is required when claim is set. "
                    + "It can be set to an empty string to disable prefixing");
        }
        if (!expression) {
            return null;
        }
        if (mapping.has("prefix")) {
            errors.add(path + ".prefix: Invalid value: \"" + mapping.path("prefix").asText("")
                    + "\": prefix can't be set when expression is set");
        }
        return ClaimExpressions.compile(ClaimExpressions.CLAIMS, path + ".expression",
                mapping.path("expression").asText(""), errors);
    }

    private static boolean usesEmail(String source) {
        return java.util.regex.Pattern.compile("claims\\.email\\b(?!_)").matcher(source).find();
    }

    private static boolean mentionsEmailVerified(CelExpression username, List<ClaimExpressions.Extra> extra,
                                                 List<ClaimExpressions.Rule> rules) {
        if (username.source().contains("claims.email_verified")) {
            return true;
        }
        return extra.stream().anyMatch(e -> e.value().source().contains("claims.email_verified"))
                || rules.stream().anyMatch(r -> r.expression().source().contains("claims.email_verified"));
    }

    static void checkIssuerUrl(String path, String url, List<String> errors) {
        if (url.isEmpty()) {
            errors.add(path + ": Required value: URL is required");
            return;
        }
        checkHttps(path, url, errors);
    }

    private static void checkHttps(String path, String url, List<String> errors) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            errors.add(path + ": Invalid value: \"" + url + "\": " + e.getMessage());
            return;
        }
        if (!"https".equals(uri.getScheme())) {
            errors.add(path + ": Invalid value: \"" + url + "\": URL scheme must be https");
        } else if (uri.getUserInfo() != null) {
            errors.add(path + ": Invalid value: \"" + url + "\": URL must not contain a username or password");
        } else if (uri.getRawQuery() != null) {
            errors.add(path + ": Invalid value: \"" + url + "\": URL must not contain a query");
        } else if (uri.getRawFragment() != null) {
            errors.add(path + ": Invalid value: \"" + url + "\": URL must not contain a fragment");
        }
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        for (Iterator<JsonNode> it = array.elements(); it.hasNext(); ) {
            String s = it.next().asText("");
            if (!s.isEmpty()) {
                out.add(s);
            }
        }
        return out;
    }
}
