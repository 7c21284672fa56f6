package io.kubelix.authn.oidc;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

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
 * with kube's field paths in the messages. CEL expressions in claim mappings and validation rules are
 * refused, naming the field: Kubelix evaluates the claim forms.
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
        noExpression(path + ".claimMappings.username", username, errors);
        if (usernameClaim.isEmpty() && !username.has("expression")) {
            errors.add(path + ".claimMappings.username: Required value: claim or expression is required");
        }
        if (!usernameClaim.isEmpty() && !username.has("prefix")) {
            errors.add(path + ".claimMappings.username.prefix: Required value: prefix is required when claim is set. "
                    + "It can be set to an empty string to disable prefixing");
        }
        JsonNode groups = mappings.path("groups");
        noExpression(path + ".claimMappings.groups", groups, errors);
        String groupsClaim = groups.path("claim").asText("");
        if (!groupsClaim.isEmpty() && !groups.has("prefix")) {
            errors.add(path + ".claimMappings.groups.prefix: Required value: prefix is required when claim is set. "
                    + "It can be set to an empty string to disable prefixing");
        }
        JsonNode uid = mappings.path("uid");
        noExpression(path + ".claimMappings.uid", uid, errors);
        if (mappings.path("extra").size() > 0) {
            errors.add(path + ".claimMappings.extra: Forbidden: CEL expressions are not supported by Kubelix yet");
        }
        Map<String, String> required = new LinkedHashMap<>();
        JsonNode rules = a.path("claimValidationRules");
        for (int i = 0; i < rules.size(); i++) {
            JsonNode rule = rules.get(i);
            String rulePath = path + ".claimValidationRules[" + i + "]";
            if (rule.has("expression")) {
                errors.add(rulePath + ".expression: Forbidden: CEL expressions are not supported by Kubelix yet");
                continue;
            }
            String claim = rule.path("claim").asText("");
            if (claim.isEmpty()) {
                errors.add(rulePath + ".claim: Required value: claim or expression is required");
            } else if (required.containsKey(claim)) {
                errors.add(rulePath + ".claim: Duplicate value: \"" + claim + "\"");
            } else {
                required.put(claim, rule.path("requiredValue").asText(""));
            }
        }
        if (a.path("userValidationRules").size() > 0) {
            errors.add(path + ".userValidationRules: Forbidden: CEL expressions are not supported by Kubelix yet");
        }
        if (errors.size() > before) {
            return null;
        }
        return new JwtIssuer(url, discovery, issuer.path("certificateAuthority").asText(""), audiences, usernameClaim,
                username.path("prefix").asText(""), groupsClaim, groups.path("prefix").asText(""),
                uid.path("claim").asText(""), required, List.of("RS256"));
    }

    private static void noExpression(String path, JsonNode mapping, List<String> errors) {
        if (mapping.has("expression")) {
            errors.add(path + ".expression: Forbidden: CEL expressions are not supported by Kubelix yet; use claim");
        }
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
