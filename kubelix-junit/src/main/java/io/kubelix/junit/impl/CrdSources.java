package io.kubelix.junit.impl;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The YAML texts of {@code @KubelixTest(crds = ...)}: a class path resource of the test class's
 * class loader first, else a file, else every {@code .yaml} and {@code .yml} file of a directory
 * in name order.
 */
public final class CrdSources {
    private CrdSources() {
    }

    public static List<String> read(List<String> sources, ClassLoader loader) {
        List<String> texts = new ArrayList<>();
        try {
            for (String source : sources) {
                URL resource = loader.getResource(source.startsWith("/") ? source.substring(1) : source);
                Path file = Path.of(source);
                if (resource != null) {
                    try (InputStream in = resource.openStream()) {
                        texts.add(new String(in.readAllBytes(), StandardCharsets.UTF_8));
                    }
                } else if (Files.isRegularFile(file)) {
                    texts.add(Files.readString(file));
                } else if (Files.isDirectory(file)) {
                    try (Stream<Path> files = Files.list(file)) {
                        for (Path yaml : files.filter(f -> f.toString().endsWith(".yaml") || f.toString().endsWith(".yml"))
                                .sorted().toList()) {
                            texts.add(Files.readString(yaml));
                        }
                    }
                } else {
                    throw new IllegalArgumentException("CRD source \"" + source + "\" is neither a class path resource "
                            + "nor a file or directory (relative to " + Path.of("").toAbsolutePath() + ")");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return texts;
    }
}
