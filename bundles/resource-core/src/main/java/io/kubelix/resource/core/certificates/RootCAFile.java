package io.kubelix.resource.core.certificates;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * The root CA the publisher hands to pods: the cluster CA {@code pki/ca.crt} of the data directory
 * (the framework property {@code kubelix.data-dir}, else {@code .kubelix}), which is what
 * {@code admin.kubeconfig} trusts for the server's certificate. Read at each use, so a CA the
 * operator replaced is published at the next sync; null while there is no such file.
 */
public final class RootCAFile implements Supplier<String> {
    private static final Logger LOG = LoggerFactory.getLogger(RootCAFile.class);

    private final Path file;
    private volatile boolean missingLogged;

    public RootCAFile(Path file) {
        this.file = file;
    }

    /** The data directory's CA, from the framework property {@code kubelix.data-dir}. */
    public static RootCAFile inDataDir(String dataDir) {
        return new RootCAFile(Path.of(dataDir == null || dataDir.isBlank() ? ".kubelix" : dataDir, "pki", "ca.crt")
                .toAbsolutePath());
    }

    @Override
    public String get() {
        try {
            String pem = Files.readString(file, StandardCharsets.UTF_8);
            missingLogged = false;
            return pem;
        } catch (NoSuchFileException e) {
            if (!missingLogged) {
                missingLogged = true;
                LOG.warn("{} not published: there is no root CA {}", RootCACertPublisher.NAME, file);
            }
            return null;
        } catch (IOException e) {
            LOG.warn("{} not published: cannot read {}: {}", RootCACertPublisher.NAME, file, e.toString());
            return null;
        }
    }
}
