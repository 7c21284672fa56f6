package io.kubelix.distribution;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KarafFeaturesTest {
    private static final String TEMPLATE = """
            <features name="kubelix-1.0" xmlns="http://karaf.apache.org/xmlns/features/v1.2.1">
              <feature name="kubelix-runtime" version="1.0">
                <feature>scr</feature>
                <bundle dependency="true">mvn:org.eclipse.jetty/jetty-util/12.0.39</bundle>
                <bundle>mvn:io.kubelix/core-runtime/1.0</bundle>
              </feature>
              <feature name="kubelix-core" version="1.0">
                <feature>kubelix-runtime</feature>
                <feature>kubelix-storage-sql</feature>
              </feature>
              <!-- plugin features -->
            </features>
            """;

    @TempDir
    Path dir;

    @Test
    void eachPluginBecomesAFeatureOnTheRuntime() throws Exception {
        tree("system", "jetty-util-12.0.39.jar", "core-runtime-1.0.jar", "slf4j-api-2.0.17.jar");
        tree("plugins", "storage-sql-1.0.jar", "resource-apps-1.0.jar");

        String features = KarafFeatures.generate(TEMPLATE, dir, "1.0");

        assertTrue(features.contains("""
                <feature name="kubelix-resource-apps" version="1.0" description="Kubelix plugin resource-apps">
                    <feature>kubelix-runtime</feature>
                    <bundle>mvn:io.kubelix/resource-apps/1.0</bundle>
                  </feature>"""), features);
        assertTrue(features.contains("<bundle>mvn:io.kubelix/storage-sql/1.0</bundle>"), features);
        assertFalse(features.contains(KarafFeatures.MARKER), features);
    }

    @Test
    void aSystemBundleInNoFeatureFailsNamingIt() throws Exception {
        tree("system", "jetty-util-12.0.39.jar", "core-runtime-1.0.jar", "jackson-core-2.18.2.jar");
        tree("plugins", "storage-sql-1.0.jar");

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> KarafFeatures.generate(TEMPLATE, dir, "1.0"));

        assertTrue(e.getMessage().contains("system/jackson-core-2.18.2.jar is in no feature"), e.getMessage());
    }

    @Test
    void aTemplateBundleOrFeatureTheTreeLacksFails() throws Exception {
        tree("system", "jetty-util-12.0.40.jar", "core-runtime-1.0.jar");
        tree("plugins", "resource-core-1.0.jar");

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> KarafFeatures.generate(TEMPLATE, dir, "1.0"));

        assertTrue(e.getMessage().contains("mvn:org.eclipse.jetty/jetty-util/12.0.39 is not system/jetty-util-12.0.39.jar"),
                e.getMessage());
        assertTrue(e.getMessage().contains("names the feature kubelix-storage-sql"), e.getMessage());
    }

    private void tree(String folder, String... jars) throws IOException {
        Path d = Files.createDirectories(dir.resolve(folder));
        for (String jar : jars) {
            Files.createFile(d.resolve(jar));
        }
    }
}
