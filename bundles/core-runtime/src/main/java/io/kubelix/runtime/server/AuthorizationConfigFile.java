package io.kubelix.runtime.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.kubelix.api.validation.NameValidators;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * kube's {@code AuthorizationConfiguration} ({@code --authorization-config}) as the server reads it:
 * the authorizers, in order, each a type and a name, checked as kube-apiserver's
 * {@code LoadAndValidateData} checks them, with its messages. What a webhook entry holds beyond its
 * presence (connection, TTLs, match conditions) is the webhook authorizer's to check.
 */
final class AuthorizationConfigFile {
    static final List<String> VERSIONS = List.of("apiserver.config.k8s.io/v1", "apiserver.config.k8s.io/v1beta1",
            "apiserver.config.k8s.io/v1alpha1");
    static final String WEBHOOK = "Webhook";
    /** kube's AuthorizationModeChoices, sorted as its "supported values" lists them. */
    private static final List<String> TYPES = List.of("ABAC", "AlwaysAllow", "AlwaysDeny", "Node", "RBAC", WEBHOOK);
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private AuthorizationConfigFile() {
    }

    /**
     * The file's authorizers in order.
     *
     * @param requiredTypes the non-webhook types a reloaded file must keep (kube's "missing required
     *                      types"), empty at start
     * @throws IllegalArgumentException with kube's message
     */
    static List<AuthorizationModes.Entry> parse(String text, Set<String> requiredTypes) {
        JsonNode config;
        try {
            config = YAML.readTree(text);
        } catch (IOException e) {
            throw new IllegalArgumentException("failed to load AuthorizationConfiguration from file: " + e.getMessage());
        }
        if (config == null || !config.isObject()) {
            throw new IllegalArgumentException("failed to load AuthorizationConfiguration from file: not a YAML or JSON object");
        }
        String apiVersion = config.path("apiVersion").asText("");
        String kind = config.path("kind").asText("");
        if (!VERSIONS.contains(apiVersion) || !kind.equals("AuthorizationConfiguration")) {
            throw new IllegalArgumentException("failed to load AuthorizationConfiguration from file: no kind \"" + kind
                    + "\" is registered for version \"" + apiVersion + "\"");
        }
        List<String> errors = new ArrayList<>();
        List<AuthorizationModes.Entry> entries = new ArrayList<>();
        JsonNode authorizers = config.path("authorizers");
        if (authorizers.size() == 0) {
            errors.add("authorizers: Required value: at least one authorization mode must be defined");
        }
        Set<String> types = new HashSet<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < authorizers.size(); i++) {
            JsonNode a = authorizers.get(i);
            String path = "authorizers[" + i + "]";
            String type = a.path("type").asText("");
            if (type.isEmpty()) {
                errors.add(path + ".type: Required value");
                continue;
            }
            if (!TYPES.contains(type)) {
                errors.add(path + ".type: Unsupported value: \"" + type + "\": supported values: \""
                        + String.join("\", \"", TYPES) + "\"");
                continue;
            }
            if (!types.add(type) && !type.equals(WEBHOOK)) {
                errors.add(path + ".type: Duplicate value: \"" + type + "\"");
                continue;
            }
            String name = a.path("name").asText("");
            if (name.isEmpty()) {
                errors.add(path + ".name: Required value");
            } else if (names.contains(name)) {
                errors.add(path + ".name: Duplicate value: \"" + name + "\"");
            } else {
                List<String> invalid = NameValidators.isDNS1123Subdomain(name);
                if (!invalid.isEmpty()) {
                    errors.add(path + ".name: Invalid value: \"" + name + "\": authorizer name is invalid: "
                            + String.join(", ", invalid));
                }
            }
            names.add(name);
            boolean webhook = a.hasNonNull("webhook");
            if (type.equals(WEBHOOK) && !webhook) {
                errors.add(path + ".webhook: Required value: required when type=Webhook");
            } else if (!type.equals(WEBHOOK) && webhook) {
                errors.add(path + ".webhook: Invalid value: \"non-null\": may only be specified when type=Webhook");
            }
            entries.add(new AuthorizationModes.Entry(type, name));
        }
        if (!errors.isEmpty()) {
            throw new IllegalArgumentException(aggregate(errors));
        }
        // kube-apiserver's own rules: other types keep the names --authorization-mode gives them, and a
        // reload may not drop one.
        Set<String> seen = new HashSet<>();
        for (AuthorizationModes.Entry e : entries) {
            if (e.type().equals(WEBHOOK)) {
                continue;
            }
            seen.add(e.type());
            String expected = e.type().toLowerCase(Locale.ROOT);
            if (!expected.equals(e.name())) {
                errors.add("expected name " + expected + " for authorizer " + e.type() + " instead of " + e.name());
            }
        }
        List<String> missing = requiredTypes.stream().filter(t -> !seen.contains(t)).sorted().toList();
        if (!missing.isEmpty()) {
            errors.add("missing required types: [" + String.join(" ", missing) + "]");
        }
        if (!errors.isEmpty()) {
            throw new IllegalArgumentException(aggregate(errors));
        }
        return List.copyOf(entries);
    }

    /** apimachinery's aggregate error: one message alone, several in brackets. */
    private static String aggregate(List<String> errors) {
        return errors.size() == 1 ? errors.get(0) : "[" + String.join(", ", errors) + "]";
    }
}
