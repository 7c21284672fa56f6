package io.kubelix.junit.impl;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The Kubelix bundles as files that Felix can install by reference. In the artifact they are
 * embedded ({@code META-INF/kubelix/bundles/}, listed in {@code META-INF/kubelix/bundles.list} by
 * the build) and extracted once per JVM, so that a second server costs no copying of the ~70 MB of
 * bundles. In this module's own build, before the jar exists, {@code META-INF/kubelix/bundles.path}
 * lists the files of the build's bundles instead: jars, or exploded bundle directories.
 */
public final class EmbeddedBundles {
    private static final String ROOT = "META-INF/kubelix/";

    // Per JVM on purpose: the extracted jars are read-only and every server installs the same ones.
    private static List<Path> extracted;

    private EmbeddedBundles() {
    }

    /** The bundle files, in the order of the index. */
    public static synchronized List<Path> files() {
        if (extracted == null) {
            extracted = locate();
        }
        return extracted;
    }

    private static List<Path> locate() {
        ClassLoader loader = EmbeddedBundles.class.getClassLoader();
        if (loader.getResource(ROOT + "bundles.list") == null && loader.getResource(ROOT + "bundles.path") != null) {
            return lines(loader, "bundles.path").stream().map(Path::of).toList();
        }
        List<String> names = lines(loader, "bundles.list");
        List<Path> files = new ArrayList<>();
        Path extractTo = null;
        try {
            for (String name : names) {
                URL url = loader.getResource(ROOT + "bundles/" + name);
                if (url == null) {
                    throw new IllegalStateException(ROOT + "bundles/" + name + " is listed but missing from "
                            + "kubelix-junit: the artifact is broken");
                }
                if ("file".equals(url.getProtocol())) {
                    files.add(Path.of(url.toURI()));
                    continue;
                }
                if (extractTo == null) {
                    extractTo = Files.createTempDirectory("kubelix-junit-bundles-");
                    extractTo.toFile().deleteOnExit();
                }
                Path file = extractTo.resolve(name);
                try (InputStream in = url.openStream()) {
                    Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
                }
                file.toFile().deleteOnExit();
                files.add(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot extract the Kubelix bundles", e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        return List.copyOf(files);
    }

    private static List<String> lines(ClassLoader loader, String index) {
        InputStream in = loader.getResourceAsStream(ROOT + index);
        if (in == null) {
            throw new IllegalStateException(ROOT + index + " is missing: kubelix-junit was not built by its Maven build");
        }
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            return reader.lines().map(String::trim).filter(l -> !l.isEmpty()).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
