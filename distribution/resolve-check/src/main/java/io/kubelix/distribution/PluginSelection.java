package io.kubelix.distribution;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** Chooses the plugins of a custom distribution: which shipped plugins stay, which bundles are added. */
final class PluginSelection {
    /** A plugin jar is {@code <name>-<version>.jar}; the name is what a user chooses by. */
    private static final Pattern VERSIONED = Pattern.compile("(.+?)-\\d[^-]*(-SNAPSHOT)?\\.jar");

    private PluginSelection() {
    }

    static void keepOnly(Path plugins, List<String> names, PrintStream out) throws IOException {
        List<String> present = new ArrayList<>();
        for (Path jar : jars(plugins)) {
            present.add(nameOf(jar));
        }
        List<String> unknown = names.stream().filter(n -> !present.contains(n)).toList();
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("no plugin named " + String.join(", ", unknown) + " in this build; the "
                    + "plugins are: " + String.join(", ", present));
        }
        for (Path jar : jars(plugins)) {
            if (!names.contains(nameOf(jar))) {
                Files.delete(jar);
                out.println("Custom distribution: left out " + jar.getFileName());
            }
        }
    }

    static void add(Path plugins, List<String> jars, PrintStream out) throws IOException {
        for (String j : jars) {
            Path jar = Path.of(j).toAbsolutePath();
            if (!Files.isRegularFile(jar)) {
                throw new IllegalArgumentException("extra plugin " + jar + " is not a file");
            }
            try (JarFile f = new JarFile(jar.toFile())) {
                if (f.getManifest() == null || f.getManifest().getMainAttributes().getValue("Bundle-SymbolicName") == null) {
                    throw new IllegalArgumentException("extra plugin " + jar + " is not an OSGi bundle (no "
                            + "Bundle-SymbolicName in its manifest)");
                }
            }
            Files.copy(jar, plugins.resolve(jar.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            out.println("Custom distribution: added " + jar.getFileName());
        }
    }

    static String nameOf(Path jar) {
        String file = jar.getFileName().toString();
        var m = VERSIONED.matcher(file);
        return m.matches() ? m.group(1) : file.substring(0, file.length() - ".jar".length());
    }

    private static List<Path> jars(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".jar")).sorted().toList();
        }
    }
}
