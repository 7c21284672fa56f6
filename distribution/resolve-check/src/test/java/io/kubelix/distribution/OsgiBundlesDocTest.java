package io.kubelix.distribution;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class OsgiBundlesDocTest {
    @TempDir
    Path dir;

    @Test
    void runBundlesKeepTheirStartLevelsAndTheRangesFloor() throws IOException {
        Path core = jar("core-runtime-0.1.0-SNAPSHOT.jar", "io.kubelix.core-runtime", "0.1.0.202611281140", "");
        Path jetty = jar("jetty-server-12.0.39.jar", "org.eclipse.jetty.server", "12.0.39", "");
        List<OsgiBundlesDoc.RunBundle> bundles = OsgiBundlesDoc.runBundles(
                "io.kubelix.core-runtime;version='[0.1.0,0.1.1)';startlevel=2,\n"
                        + "org.eclipse.jetty.server;version='[12.0.39,12.0.40)'",
                Map.of("io.kubelix.core-runtime", core, "org.eclipse.jetty.server", jetty));
        assertEquals(List.of(new OsgiBundlesDoc.RunBundle("io.kubelix.core-runtime", "0.1.0", 2, core),
                new OsgiBundlesDoc.RunBundle("org.eclipse.jetty.server", "12.0.39", 1, jetty)), bundles);
    }

    @Test
    void aRunBundleTheRepositoryLacksIsAnError() {
        assertThrows(IllegalStateException.class, () -> OsgiBundlesDoc.runBundles("x;version='[1,2)'", Map.of()));
    }

    @Test
    void theResolvedBndrunReadsTheIncludedOnesInstructions() throws IOException {
        Files.writeString(dir.resolve("kubelix.bndrun"), "-runfw: org.apache.felix.framework\n-runbundles: old\n");
        Path resolved = dir.resolve("out.bndrun");
        Files.writeString(resolved, "-include=\"~" + dir.resolve("kubelix.bndrun") + "\"\n-runbundles: \\\n\ta,\\\n\tb\n");
        Properties p = OsgiBundlesDoc.load(resolved);
        assertEquals("org.apache.felix.framework", p.getProperty("-runfw"));
        assertEquals("a,b", p.getProperty("-runbundles"));
    }

    @Test
    void propertiesAreFlagNamesNotServicePropertiesOrHostNames() throws IOException {
        Path jar = jar("x.jar", "x", "1", "kubelix.data-dir kubelix.storage.backend widgets.sample.kubelix.io "
                + "io.kubelix.runtime kubelix.db kubelix.secure-port");
        assertEquals(Set.of("kubelix.data-dir", "kubelix.secure-port"), OsgiBundlesDoc.propertiesNamed(jar));
    }

    /** A bundle jar with one class file whose bytes hold {@code constants}. */
    private Path jar(String file, String name, String version, String constants) throws IOException {
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().putValue("Bundle-SymbolicName", name);
        m.getMainAttributes().putValue("Bundle-Version", version);
        Path jar = dir.resolve(file);
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out, m)) {
            j.putNextEntry(new JarEntry("x/C.class"));
            for (String c : constants.split(" ")) {
                j.write(1);
                j.write(c.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            }
            j.closeEntry();
        }
        return jar;
    }
}
