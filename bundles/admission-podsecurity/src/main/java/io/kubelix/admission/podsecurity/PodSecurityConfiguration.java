package io.kubelix.admission.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubelix.admission.podsecurity.LevelVersion.Level;
import io.kubelix.support.admission.config.AdmissionConfigurationFile;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The plugin's {@code PodSecurityConfiguration} (kube's {@code pod-security.admission.config.k8s.io}),
 * as {@code --admission-control-config-file}'s {@code AdmissionConfiguration} gives it to the plugin
 * named {@code PodSecurity}, inline ({@code configuration}) or in a file of its own ({@code path},
 * relative to the admission configuration's directory): the policy of namespaces without labels,
 * and the users, runtime classes and namespaces that are never checked.
 *
 * @param defaults       the policy of a namespace's missing labels
 * @param usernames      users whose requests are not checked
 * @param runtimeClasses pods of these runtime classes are not checked
 * @param namespaces     namespaces whose pods and workloads are not checked
 */
record PodSecurityConfiguration(NamespacePolicy defaults, Set<String> usernames, Set<String> runtimeClasses,
                                Set<String> namespaces) {
    static final String PLUGIN = PodSecurityAdmission.PLUGIN_NAME;
    private static final Set<String> API_VERSIONS = Set.of("pod-security.admission.config.k8s.io/v1",
            "pod-security.admission.config.k8s.io/v1beta1", "pod-security.admission.config.k8s.io/v1alpha1");

    /** kube's default: every namespace without labels is privileged, nothing is exempt. */
    static final PodSecurityConfiguration DEFAULT = new PodSecurityConfiguration(NamespacePolicy.DEFAULT, Set.of(),
            Set.of(), Set.of());

    /**
     * The configuration {@code admissionConfigFile} gives the PodSecurity plugin; the default when no
     * file is given or it names no configuration for it.
     *
     * @throws IllegalArgumentException when a file cannot be read or the configuration is not valid
     */
    static PodSecurityConfiguration read(String admissionConfigFile, ObjectMapper yaml) {
        return AdmissionConfigurationFile.pluginConfiguration(admissionConfigFile, PLUGIN, yaml)
                .map(PodSecurityConfiguration::of).orElse(DEFAULT);
    }

    /** A {@code PodSecurityConfiguration} object: its defaults (privileged and latest when unset) and exemptions. */
    static PodSecurityConfiguration of(JsonNode config) {
        List<String> errors = new ArrayList<>();
        if (!"PodSecurityConfiguration".equals(config.path("kind").asText())
                || !API_VERSIONS.contains(config.path("apiVersion").asText())) {
            errors.add("not a PodSecurityConfiguration of pod-security.admission.config.k8s.io/v1, v1beta1 or v1alpha1");
        }
        JsonNode d = config.path("defaults");
        NamespacePolicy defaults = new NamespacePolicy(mode(d, "enforce", errors), mode(d, "audit", errors),
                mode(d, "warn", errors), List.of());
        JsonNode exemptions = config.path("exemptions");
        PodSecurityConfiguration c = new PodSecurityConfiguration(defaults, names(exemptions, "usernames", errors),
                names(exemptions, "runtimeClasses", errors), names(exemptions, "namespaces", errors));
        if (!errors.isEmpty()) {
            throw new IllegalArgumentException("invalid PodSecurityConfiguration: " + String.join(", ", errors));
        }
        return c;
    }

    private static LevelVersion mode(JsonNode defaults, String mode, List<String> errors) {
        String level = defaults.path(mode).asText("privileged");
        String version = defaults.path(mode + "-version").asText("latest");
        Level l = Level.parse(level);
        Integer v = LevelVersion.parseVersion(version);
        if (l == null) {
            errors.add("defaults." + mode + ": Invalid value: \"" + level + "\": must be one of privileged, baseline, restricted");
        }
        if (v == null) {
            errors.add("defaults." + mode + "-version: Invalid value: \"" + version + "\": must be \"latest\" or \"v1.x\"");
        }
        return new LevelVersion(l == null ? Level.PRIVILEGED : l, v == null ? LevelVersion.LATEST : v);
    }

    private static Set<String> names(JsonNode exemptions, String field, List<String> errors) {
        Set<String> names = new TreeSet<>();
        JsonNode list = exemptions.path(field);
        for (int i = 0; i < list.size(); i++) {
            String name = list.get(i).asText("");
            if (name.isEmpty()) {
                errors.add("exemptions." + field + "[" + i + "]: Invalid value: \"\": must be non-empty");
            } else if (!names.add(name)) {
                errors.add("exemptions." + field + "[" + i + "]: Duplicate value: \"" + name + "\"");
            }
        }
        return Set.copyOf(names);
    }
}
