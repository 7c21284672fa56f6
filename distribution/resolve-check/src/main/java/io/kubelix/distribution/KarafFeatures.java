package io.kubelix.distribution;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Writes Kubelix's Karaf features repository from the default distribution's tree, so that the
 * features install exactly the bundles the distribution ships.
 *
 * <p>The template (filtered by Maven) holds the hand-written features: {@code kubelix-runtime}
 * with the libraries of {@code system/}, and {@code kubelix-core}. This tool adds one feature per
 * jar of {@code plugins/}, {@code kubelix-<plugin>}, in place of the marker. It fails when the two
 * drift apart: a bundle of {@code system/} that the template neither lists nor leaves to Karaf, a
 * template bundle that {@code system/} lacks, or a feature the template names that does not exist.
 *
 * <p>Usage: {@code KarafFeatures <template> <distribution dir> <version> <repository dir>}. Writes
 * {@code <repository>/io/kubelix/distribution/<version>/distribution-<version>-features.xml} and
 * copies Kubelix's own bundles beside it in the Maven layout, so that Karaf can be pointed at the
 * repository directory without a {@code mvn install}.
 */
public final class KarafFeatures {
    static final String MARKER = "<!-- plugin features -->";
    static final String GROUP = "io.kubelix";
    private static final Pattern BUNDLE = Pattern.compile("<bundle[^>]*>mvn:([^/<]+)/([^/<]+)/([^/<]+)</bundle>");
    private static final Pattern FEATURE_NAME = Pattern.compile("<feature name=\"([^\"]+)\"");
    private static final Pattern FEATURE_REF = Pattern.compile("<feature>(kubelix-[^<]+)</feature>");

    /**
     * The artifacts of {@code system/} that Karaf provides itself: SLF4J (pax-logging), the service
     * loader mediator with ASM (the spifly feature), Declarative Services (the scr feature),
     * ConfigAdmin, the Gogo shell, FileInstall, and Logback with Kubelix's log formats, which
     * pax-logging replaces.
     */
    static final Set<String> PROVIDED_BY_KARAF = Set.of("org.apache.aries.spifly.dynamic.bundle", "asm", "asm-tree",
            "asm-analysis", "asm-commons", "asm-util", "slf4j-api", "logback-core", "logback-classic", "logging",
            "org.osgi.util.function", "org.osgi.util.promise", "org.osgi.service.component",
            "org.apache.felix.configadmin", "org.apache.felix.scr", "org.apache.felix.gogo.runtime",
            "org.apache.felix.gogo.command", "org.apache.felix.gogo.shell", "org.apache.felix.fileinstall");

    private KarafFeatures() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 4) {
            System.err.println("usage: KarafFeatures <template> <distribution dir> <version> <repository dir>");
            System.exit(2);
        }
        Path distribution = Path.of(args[1]);
        String version = args[2];
        Path repository = Path.of(args[3]);
        String features;
        try {
            features = generate(Files.readString(Path.of(args[0]), StandardCharsets.UTF_8), distribution, version);
        } catch (IllegalArgumentException e) {
            System.err.println("The Karaf features do not fit the distribution: " + e.getMessage());
            System.exit(1);
            return;
        }
        Path file = artifact(repository, "distribution", version, "-features.xml");
        Files.createDirectories(file.getParent());
        Files.writeString(file, features, StandardCharsets.UTF_8);
        for (Path jar : ownBundles(distribution)) {
            Path target = artifact(repository, PluginSelection.nameOf(jar), version, ".jar");
            Files.createDirectories(target.getParent());
            Files.copy(jar, target, StandardCopyOption.REPLACE_EXISTING);
        }
        System.out.println("Karaf features: " + file);
    }

    /** The features repository: the template with a feature per plugin in place of the marker. */
    static String generate(String template, Path distribution, String version) throws IOException {
        if (!template.contains(MARKER)) {
            throw new IllegalArgumentException("the template lacks the marker " + MARKER);
        }
        List<String> problems = new ArrayList<>();
        Set<String> listed = new TreeSet<>();
        Matcher bundle = BUNDLE.matcher(template);
        while (bundle.find()) {
            String file = bundle.group(2) + "-" + bundle.group(3) + ".jar";
            listed.add(bundle.group(2));
            if (!Files.isRegularFile(distribution.resolve("system").resolve(file))) {
                problems.add("the template's mvn:" + bundle.group(1) + "/" + bundle.group(2) + "/" + bundle.group(3)
                        + " is not system/" + file);
            }
        }
        for (Path jar : jars(distribution.resolve("system"))) {
            String name = PluginSelection.nameOf(jar);
            if (!listed.contains(name) && !PROVIDED_BY_KARAF.contains(name)) {
                problems.add("system/" + jar.getFileName() + " is in no feature: add it to kubelix-runtime, or to "
                        + "KarafFeatures.PROVIDED_BY_KARAF when Karaf provides it");
            }
        }
        StringBuilder plugins = new StringBuilder();
        Set<String> names = new LinkedHashSet<>();
        Matcher declared = FEATURE_NAME.matcher(template);
        while (declared.find()) {
            names.add(declared.group(1));
        }
        for (Path jar : jars(distribution.resolve("plugins"))) {
            String plugin = PluginSelection.nameOf(jar);
            names.add("kubelix-" + plugin);
            plugins.append("<feature name=\"kubelix-").append(plugin).append("\" version=\"").append(version)
                    .append("\" description=\"Kubelix plugin ").append(plugin).append("\">\n")
                    .append("    <feature>kubelix-runtime</feature>\n")
                    .append("    <bundle>mvn:").append(GROUP).append('/').append(plugin).append('/').append(version)
                    .append("</bundle>\n  </feature>\n\n  ");
        }
        Matcher ref = FEATURE_REF.matcher(template);
        while (ref.find()) {
            if (!names.contains(ref.group(1))) {
                problems.add("the template names the feature " + ref.group(1) + ", which is neither in it nor a "
                        + "plugin of plugins/");
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
        return template.replace(MARKER, plugins.toString().stripTrailing());
    }

    /** Kubelix's own bundles of the tree: the core of {@code system/} and every plugin. */
    private static List<Path> ownBundles(Path distribution) throws IOException {
        List<Path> own = new ArrayList<>();
        for (Path jar : jars(distribution.resolve("system"))) {
            String name = PluginSelection.nameOf(jar);
            if (name.equals("core-api") || name.equals("core-runtime")) {
                own.add(jar);
            }
        }
        own.addAll(jars(distribution.resolve("plugins")));
        return own;
    }

    private static Path artifact(Path repository, String artifactId, String version, String suffix) {
        return repository.resolve(GROUP.replace('.', '/')).resolve(artifactId).resolve(version)
                .resolve(artifactId + "-" + version + suffix);
    }

    private static List<Path> jars(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".jar")).sorted().toList();
        }
    }
}
