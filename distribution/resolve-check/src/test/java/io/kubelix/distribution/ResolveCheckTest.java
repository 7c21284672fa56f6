package io.kubelix.distribution;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ResolveCheckTest {
    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());

    @TempDir
    Path dist;

    @Test
    void bundlesWhoseImportsAreProvidedResolve() throws Exception {
        bundle("system/api-1.0.0.jar", "test.api", "Export-Package", "test.api;version=\"1.0.0\"");
        bundle("plugins/good-1.0.0.jar", "test.good", "Import-Package", "test.api;version=\"[1.0,2)\",org.osgi.framework");

        assertEquals(List.of(), ResolveCheck.check(dist, QUIET));
    }

    @Test
    void aMissingPackageIsReportedWithTheRequirementNothingProvides() throws Exception {
        bundle("system/api-1.0.0.jar", "test.api", "Export-Package", "test.api;version=\"1.0.0\"");
        bundle("plugins/needy-1.0.0.jar", "test.needy", "Import-Package", "test.missing");

        List<String> problems = ResolveCheck.check(dist, QUIET);

        assertEquals(1, problems.size());
        assertTrue(problems.get(0).startsWith("plugins/needy-1.0.0.jar: "), problems.get(0));
        assertTrue(problems.get(0).contains("osgi.wiring.package=test.missing"), problems.get(0));
    }

    @Test
    void aCustomDistributionKeepsOnlyTheChosenPlugins() throws Exception {
        bundle("plugins/storage-memory-0.1.0-SNAPSHOT.jar", "x.memory", "Import-Package", "org.osgi.framework");
        bundle("plugins/storage-etcd-0.1.0-SNAPSHOT.jar", "x.etcd", "Import-Package", "org.osgi.framework");
        bundle("plugins/resource-core-0.1.0-SNAPSHOT.jar", "x.core", "Import-Package", "org.osgi.framework");
        ByteArrayOutputStream log = new ByteArrayOutputStream();

        PluginSelection.keepOnly(dist.resolve("plugins"), List.of("storage-memory", "resource-core"), new PrintStream(log));

        try (var s = Files.list(dist.resolve("plugins"))) {
            assertEquals(List.of("resource-core-0.1.0-SNAPSHOT.jar", "storage-memory-0.1.0-SNAPSHOT.jar"),
                    s.map(p -> p.getFileName().toString()).sorted().toList());
        }
        assertTrue(log.toString().contains("left out storage-etcd-0.1.0-SNAPSHOT.jar"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PluginSelection.keepOnly(dist.resolve("plugins"), List.of("storage-mem"), QUIET));
        assertTrue(e.getMessage().contains("no plugin named storage-mem"), e.getMessage());
    }

    @Test
    void anExtraPluginMustBeABundle() throws Exception {
        Files.createDirectories(dist.resolve("plugins"));
        Path notABundle = dist.resolve("plain.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(notABundle), new Manifest())) {
            out.flush();
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PluginSelection.add(dist.resolve("plugins"), List.of(notABundle.toString()), QUIET));
        assertTrue(e.getMessage().contains("not an OSGi bundle"), e.getMessage());
    }

    @Test
    void pluginNamesAreTheFileNamesWithoutVersion() {
        assertEquals("storage-memory", PluginSelection.nameOf(Path.of("storage-memory-0.1.0-SNAPSHOT.jar")));
        assertEquals("authz-authenticated", PluginSelection.nameOf(Path.of("authz-authenticated-1.2.3.jar")));
        assertEquals("my-plugin", PluginSelection.nameOf(Path.of("my-plugin.jar")));
    }

    private void bundle(String path, String symbolicName, String header, String value) throws IOException {
        Path jar = dist.resolve(path);
        Files.createDirectories(jar.getParent());
        Manifest m = new Manifest();
        Attributes a = m.getMainAttributes();
        a.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        a.putValue("Bundle-ManifestVersion", "2");
        a.putValue("Bundle-SymbolicName", symbolicName);
        a.putValue("Bundle-Version", "1.0.0");
        a.putValue(header, value);
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), m)) {
            out.flush();
        }
    }
}
