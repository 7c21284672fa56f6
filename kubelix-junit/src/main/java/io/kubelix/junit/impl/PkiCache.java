package io.kubelix.junit.impl;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

/**
 * The first server's CA, serving and admin certificates, admin token and service account signing
 * key, kept for the other servers of this JVM: a server whose data directory already holds them
 * reuses them (as a restarted bin/kubelix does) instead of generating three EC and one RSA key
 * pair and signing three certificates. The
 * serving certificate names 127.0.0.1, ::1 and localhost, whatever the port, so it fits every
 * embedded server. Every server of the JVM then trusts the same CA and accepts the same token.
 */
public final class PkiCache {
    private static final List<String> FILES = List.of("pki/ca.crt", "pki/ca.key", "pki/apiserver.crt",
            "pki/apiserver.key", "pki/admin.crt", "pki/admin.key", "tokens.csv", "service-account.key");

    // Per JVM on purpose: that is the lifetime of the saving, and nothing outside the JVM sees it.
    private static Path cached;

    private PkiCache() {
    }

    /** Copies the cached files into a new server's data directory; does nothing before the first server. */
    public static synchronized void seed(Path dataDir) throws IOException {
        if (cached == null) {
            return;
        }
        createPrivateDirectory(dataDir.resolve("pki"));
        for (String file : FILES) {
            if (Files.exists(cached.resolve(file))) {
                Files.copy(cached.resolve(file), dataDir.resolve(file), StandardCopyOption.COPY_ATTRIBUTES);
            }
        }
    }

    /** Keeps the files of a server that started (the first one) for the next servers. */
    public static synchronized void remember(Path dataDir) throws IOException {
        if (cached != null) {
            return;
        }
        Path copy = Files.createTempDirectory("kubelix-junit-pki-");
        createPrivateDirectory(copy.resolve("pki"));
        // deleteOnExit deletes in the reverse order: the files, then pki/, then the directory
        copy.toFile().deleteOnExit();
        copy.resolve("pki").toFile().deleteOnExit();
        for (String file : FILES) {
            // the service account key is there unless --service-account-key-file named another
            if (Files.exists(dataDir.resolve(file))) {
                Files.copy(dataDir.resolve(file), copy.resolve(file), StandardCopyOption.COPY_ATTRIBUTES);
                copy.resolve(file).toFile().deleteOnExit();
            }
        }
        cached = copy;
    }

    /** Owner-only where the file system is POSIX, as the server wants the directory of its keys. */
    private static void createPrivateDirectory(Path dir) throws IOException {
        if (dir.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } else {
            Files.createDirectories(dir);
        }
    }
}
