package io.kubelix.support.admission.config;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A plugin's configuration found in an AdmissionConfiguration (JSON here: the YAML mapper is the caller's). */
class AdmissionConfigurationFileTest {
    private final ObjectMapper json = new ObjectMapper();

    @Test
    void aPluginsConfigurationIsInlineOrInAFileBesideTheAdmissionConfiguration(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("admission.json"), """
                {"apiVersion": "apiserver.config.k8s.io/v1", "kind": "AdmissionConfiguration", "plugins": [
                  {"name": "Inline", "configuration": {"kind": "A"}},
                  {"name": "FromFile", "path": "from-file.json"}]}
                """);
        Files.writeString(dir.resolve("from-file.json"), "{\"kind\": \"B\"}");
        String file = dir.resolve("admission.json").toString();

        assertEquals("A", AdmissionConfigurationFile.pluginConfiguration(file, "Inline", json).orElseThrow()
                .path("kind").asText());
        assertEquals("B", AdmissionConfigurationFile.pluginConfiguration(file, "FromFile", json).orElseThrow()
                .path("kind").asText());
        assertEquals(Optional.empty(), AdmissionConfigurationFile.pluginConfiguration(file, "Other", json));
        assertEquals(Optional.empty(), AdmissionConfigurationFile.pluginConfiguration(null, "Inline", json));
        assertEquals(Optional.empty(), AdmissionConfigurationFile.pluginConfiguration(" ", "Inline", json));
    }

    @Test
    void aFileThatIsNotAnAdmissionConfigurationIsAnError(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("other.json"), "{\"kind\": \"Pod\"}");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> AdmissionConfigurationFile
                .pluginConfiguration(dir.resolve("other.json").toString(), "ResourceQuota", json));
        assertEquals(dir.resolve("other.json") + ": not an AdmissionConfiguration", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> AdmissionConfigurationFile
                .pluginConfiguration(dir.resolve("missing.json").toString(), "ResourceQuota", json));
    }
}
