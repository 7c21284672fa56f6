package io.kubelix.authz.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubelix.support.time.GoDuration;
import io.kubelix.support.webhook.WebhookKubeconfig;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The webhooks of kube's {@code AuthorizationConfiguration} ({@code --authorization-config},
 * {@code apiserver.config.k8s.io/v1}, {@code v1beta1} or {@code v1alpha1}): each {@code type: Webhook}
 * entry with its defaults filled in ({@code authorizedTTL} 5m, {@code unauthorizedTTL} 30s, both
 * cached) and checked as kube's {@code ValidateWebhookConfiguration} checks it, with its messages.
 * The server checks the rest of the file (types, names, order).
 */
final class AuthorizationConfiguration {
    private static final List<String> VERSIONS = List.of("apiserver.config.k8s.io/v1", "apiserver.config.k8s.io/v1beta1",
            "apiserver.config.k8s.io/v1alpha1");
    static final String IN_CLUSTER = "InClusterConfig";
    static final String KUBE_CONFIG_FILE = "KubeConfigFile";

    /** A webhook entry: its settings and where its reviews go. */
    record Webhook(WebhookAuthorizer.Settings settings, WebhookKubeconfig target) {
        String name() {
            return settings.name();
        }
    }

    private AuthorizationConfiguration() {
    }

    /**
     * @param inCluster the in-cluster connection ({@code InClusterConfig}), read only when an entry asks for it
     * @throws IllegalArgumentException with kube's messages, joined as its aggregate error
     */
    static List<Webhook> parse(String text, ObjectMapper yaml, Supplier<WebhookKubeconfig> inCluster) {
        JsonNode config;
        try {
            config = yaml.readTree(text);
        } catch (IOException e) {
            throw new IllegalArgumentException("failed to load AuthorizationConfiguration from file: " + e.getMessage());
        }
        if (config == null || !VERSIONS.contains(config.path("apiVersion").asText(""))
                || !"AuthorizationConfiguration".equals(config.path("kind").asText(""))) {
            throw new IllegalArgumentException("failed to load AuthorizationConfiguration from file: not an "
                    + "AuthorizationConfiguration of " + String.join(", ", VERSIONS));
        }
        List<String> errors = new ArrayList<>();
        List<Webhook> webhooks = new ArrayList<>();
        Set<String> names = new HashSet<>();
        JsonNode authorizers = config.path("authorizers");
        for (int i = 0; i < authorizers.size(); i++) {
            JsonNode a = authorizers.get(i);
            String name = a.path("name").asText("");
            if (!"Webhook".equals(a.path("type").asText()) || !a.path("webhook").isObject() || !names.add(name)) {
                continue;
            }
            Webhook w = webhook(name, a.path("webhook"), "authorizers[" + i + "]", errors, yaml, inCluster);
            if (w != null) {
                webhooks.add(w);
            }
        }
        if (!errors.isEmpty()) {
            throw new IllegalArgumentException(errors.size() == 1 ? errors.get(0) : "[" + String.join(", ", errors) + "]");
        }
        return List.copyOf(webhooks);
    }

    // kube reports a webhook's fields under the entry's path (authorizers[i].timeout), not under .webhook.
    private static Webhook webhook(String name, JsonNode w, String path, List<String> errors, ObjectMapper yaml,
                                   Supplier<WebhookKubeconfig> inCluster) {
        int before = errors.size();
        Duration timeout = duration(w, "timeout", null, path, errors);
        if (timeout != null && (timeout.isZero() || timeout.compareTo(Duration.ofSeconds(30)) > 0)) {
            errors.add(timeout.isZero() ? path + ".timeout: Required value"
                    : path + ".timeout: Invalid value: \"" + w.path("timeout").asText() + "\": must be > 0s and <= 30s");
        }
        Duration authorized = duration(w, "authorizedTTL", Duration.ofMinutes(5), path, errors);
        Duration unauthorized = duration(w, "unauthorizedTTL", Duration.ofSeconds(30), path, errors);
        String version = w.path("subjectAccessReviewVersion").asText("");
        if (version.isEmpty()) {
            errors.add(path + ".subjectAccessReviewVersion: Required value");
        } else if (!version.equals("v1") && !version.equals("v1beta1")) {
            errors.add(path + ".subjectAccessReviewVersion: Unsupported value: \"" + version
                    + "\": supported values: \"v1\", \"v1beta1\"");
        }
        JsonNode conditions = w.path("matchConditions");
        String conditionVersion = w.path("matchConditionSubjectAccessReviewVersion").asText("");
        if (conditionVersion.isEmpty() && conditions.size() > 0) {
            errors.add(path + ".matchConditionSubjectAccessReviewVersion: Required value: required if match "
                    + "conditions are specified");
        } else if (!conditionVersion.isEmpty() && !conditionVersion.equals("v1")) {
            errors.add(path + ".matchConditionSubjectAccessReviewVersion: Unsupported value: \"" + conditionVersion
                    + "\": supported values: \"v1\"");
        }
        String failurePolicy = w.path("failurePolicy").asText("");
        if (failurePolicy.isEmpty()) {
            errors.add(path + ".failurePolicy: Required value");
        } else if (!failurePolicy.equals("NoOpinion") && !failurePolicy.equals("Deny")) {
            errors.add(path + ".failurePolicy: Unsupported value: \"" + failurePolicy
                    + "\": supported values: \"NoOpinion\", \"Deny\"");
        }
        WebhookKubeconfig target = target(w.path("connectionInfo"), path, errors, yaml, inCluster);
        MatchConditions matchConditions = MatchConditions.compile(conditions, path, errors);
        if (errors.size() > before) {
            return null;
        }
        // cacheAuthorizedRequests / cacheUnauthorizedRequests: false keeps no answer of that kind.
        Duration authorizedTtl = w.path("cacheAuthorizedRequests").asBoolean(true) ? authorized : Duration.ZERO;
        Duration unauthorizedTtl = w.path("cacheUnauthorizedRequests").asBoolean(true) ? unauthorized : Duration.ZERO;
        return new Webhook(new WebhookAuthorizer.Settings(name, timeout, authorizedTtl, unauthorizedTtl, version,
                failurePolicy.equals("Deny"), matchConditions), target);
    }

    private static WebhookKubeconfig target(JsonNode connection, String path, List<String> errors, ObjectMapper yaml,
                                            Supplier<WebhookKubeconfig> inCluster) {
        String type = connection.path("type").asText("");
        String file = connection.path("kubeConfigFile").asText(null);
        String at = path + ".connectionInfo.kubeConfigFile";
        switch (type) {
            case "" -> errors.add(path + ".connectionInfo.type: Required value");
            case IN_CLUSTER -> {
                if (file != null) {
                    errors.add(at + ": Invalid value: \"" + file + "\": can only be set when type=KubeConfigFile");
                    return null;
                }
                try {
                    return inCluster.get();
                } catch (IllegalArgumentException e) {
                    errors.add(e.getMessage());
                }
            }
            case KUBE_CONFIG_FILE -> {
                if (file == null || file.isEmpty()) {
                    errors.add(at + ": Required value");
                } else if (!Path.of(file).isAbsolute()) {
                    errors.add(at + ": Invalid value: \"" + file + "\": must be an absolute path");
                } else if (!Files.exists(Path.of(file))) {
                    errors.add(at + ": Invalid value: \"" + file + "\": error loading file: stat " + file
                            + ": no such file or directory");
                } else if (!Files.isRegularFile(Path.of(file))) {
                    errors.add(at + ": Invalid value: \"" + file + "\": must be a regular file");
                } else {
                    try {
                        return WebhookKubeconfig.read(Path.of(file), yaml, "authorization webhook kubeConfigFile");
                    } catch (IllegalArgumentException e) {
                        errors.add(e.getMessage());
                    }
                }
            }
            default -> errors.add(path + ".connectionInfo.type: Unsupported value: \"" + type
                    + "\": supported values: \"" + IN_CLUSTER + "\", \"" + KUBE_CONFIG_FILE + "\"");
        }
        return null;
    }

    private static Duration duration(JsonNode w, String field, Duration dflt, String path, List<String> errors) {
        JsonNode v = w.get(field);
        if (v == null || v.isNull() || v.asText().isEmpty()) {
            if (dflt == null) {
                errors.add(path + "." + field + ": Required value");
            }
            return dflt;
        }
        try {
            return GoDuration.parseFlag(path + "." + field, v.asText());
        } catch (IllegalArgumentException e) {
            errors.add(e.getMessage());
            return dflt;
        }
    }

    /**
     * client-go's in-cluster configuration: the service host and port from the environment, the
     * pod's service account token and CA. Reviews are POSTed to the server's root.
     */
    static WebhookKubeconfig inCluster(Map<String, String> env, Path serviceAccountDir) {
        String host = env.get("KUBERNETES_SERVICE_HOST");
        String port = env.get("KUBERNETES_SERVICE_PORT");
        if (host == null || host.isEmpty() || port == null || port.isEmpty()) {
            throw new IllegalArgumentException("unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and "
                    + "KUBERNETES_SERVICE_PORT must be defined");
        }
        try {
            String token = Files.readString(serviceAccountDir.resolve("token")).trim();
            byte[] ca = Files.readAllBytes(serviceAccountDir.resolve("ca.crt"));
            String h = host.contains(":") ? "[" + host + "]" : host;
            return new WebhookKubeconfig(URI.create("https://" + h + ":" + port), ca, token);
        } catch (IOException e) {
            throw new IllegalArgumentException("unable to load in-cluster configuration: " + e);
        }
    }
}
