package io.kubelix.admission.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.kubelix.support.admission.config.AdmissionConfigurationFile;
import io.kubelix.support.webhook.AuthenticationInfoResolver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.Set;

/**
 * kube's webhook admission configuration ({@code webhook/config}'s {@code LoadConfig}): what
 * {@code --admission-control-config-file} gives ValidatingAdmissionWebhook or MutatingAdmissionWebhook
 * is a {@code WebhookAdmissionConfiguration} (or the older {@code WebhookAdmission}) whose
 * {@code kubeConfigFile}, an absolute path, names the kubeconfig whose users are the credentials
 * webhooks are called with ({@link AuthenticationInfoResolver}).
 */
final class WebhookAdmissionConfiguration {
    private static final Logger LOG = LoggerFactory.getLogger(WebhookAdmissionConfiguration.class);
    private static final Set<String> KINDS = Set.of("WebhookAdmissionConfiguration", "WebhookAdmission");

    private WebhookAdmissionConfiguration() {
    }

    /**
     * The credentials of the plugin named {@code plugin}; none without a configuration for it.
     *
     * @throws IllegalArgumentException when the configuration or its kubeconfig is invalid, which
     *                                  leaves the plugin unstarted, as kube-apiserver does not start
     */
    static AuthenticationInfoResolver credentials(String admissionConfigFile, String plugin) {
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        return AdmissionConfigurationFile.pluginConfiguration(admissionConfigFile, plugin, yaml)
                .map(c -> {
                    AuthenticationInfoResolver r = of(c, yaml);
                    LOG.info("{}: webhook credentials from {}", plugin, c.path("kubeConfigFile").asText());
                    return r;
                })
                .orElse(AuthenticationInfoResolver.NONE);
    }

    static AuthenticationInfoResolver of(JsonNode configuration, ObjectMapper yaml) {
        String kind = configuration.path("kind").asText("");
        if (!KINDS.contains(kind)) {
            throw new IllegalArgumentException("unexpected kind \"" + kind + "\": the webhook admission configuration "
                    + "must be a WebhookAdmissionConfiguration");
        }
        String file = configuration.path("kubeConfigFile").asText("");
        if (!Path.of(file).isAbsolute()) {
            throw new IllegalArgumentException("kubeConfigFile: Invalid value: \"" + file
                    + "\": must be an absolute file path");
        }
        return AuthenticationInfoResolver.read(Path.of(file), yaml);
    }
}
