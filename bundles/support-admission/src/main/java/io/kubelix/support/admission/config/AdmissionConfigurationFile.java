package io.kubelix.support.admission.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * kube's {@code ReadAdmissionConfiguration}: the file {@code --admission-control-config-file} names is an
 * {@code AdmissionConfiguration} ({@code apiserver.config.k8s.io/v1}) whose {@code plugins} give each plugin,
 * by name, its configuration inline ({@code configuration}) or in a file of its own ({@code path}, relative
 * to the admission configuration's directory).
 */
public final class AdmissionConfigurationFile {
    /** The bundle context property that carries {@code --admission-control-config-file}. */
    public static final String PROPERTY = "kubelix.admission-control-config-file";

    private AdmissionConfigurationFile() {
    }

    /**
     * The configuration {@code admissionConfigFile} gives the plugin named {@code plugin}; empty when
     * no file is given (null or blank) or the file names no configuration for it.
     *
     * @param yaml the caller's mapper for YAML (which also reads JSON)
     * @throws IllegalArgumentException when a file cannot be read or is not an AdmissionConfiguration
     */
    public static Optional<JsonNode> pluginConfiguration(String admissionConfigFile, String plugin, ObjectMapper yaml) {
        if (admissionConfigFile == null || admissionConfigFile.isBlank()) {
            return Optional.empty();
        }
        Path file = Path.of(admissionConfigFile);
        JsonNode admission = readTree(file, yaml);
        if (!"AdmissionConfiguration".equals(admission.path("kind").asText())) {
            throw new IllegalArgumentException(file + ": not an AdmissionConfiguration");
        }
        for (JsonNode p : admission.path("plugins")) {
            if (!plugin.equals(p.path("name").asText())) {
                continue;
            }
            if (p.hasNonNull("configuration")) {
                return Optional.of(p.path("configuration"));
            }
            if (p.hasNonNull("path")) {
                Path path = Path.of(p.path("path").asText());
                Path dir = file.toAbsolutePath().getParent();
                return Optional.of(readTree(path.isAbsolute() || dir == null ? path : dir.resolve(path), yaml));
            }
        }
        return Optional.empty();
    }

    private static JsonNode readTree(Path file, ObjectMapper yaml) {
        try {
            JsonNode tree = yaml.readTree(file.toFile());
            if (tree == null || !tree.isObject()) {
                throw new IllegalArgumentException(file + ": not an object");
            }
            return tree;
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
    }
}
