package io.kubelix.runtime.bootstrap;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Writes files that hold secrets: owner-only (0600, directories 0700) where the file system is
 * POSIX, and atomically (temp file then rename) so a crash never leaves half a key behind.
 */
final class SecureFiles {

    private static final Set<PosixFilePermission> OWNER_FILE = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> OWNER_DIR = PosixFilePermissions.fromString("rwx------");

    private SecureFiles() {
    }

    /**
     * Creates the directory (and its parents) when missing; a directory it creates is 0700.
     *
     * @return true when an existing directory others could read or enter was made owner-only (0700)
     */
    static boolean createPrivateDirectory(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            if (posix(dir) && !Files.getPosixFilePermissions(dir).equals(OWNER_DIR)) {
                Files.setPosixFilePermissions(dir, OWNER_DIR);
                return true;
            }
            return false;
        }
        if (Files.exists(dir)) {
            throw new IOException(dir + " exists but is not a directory; move it away or choose another data directory");
        }
        if (posix(dir)) {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(OWNER_DIR));
        } else {
            Files.createDirectories(dir);
        }
        return false;
    }

    /** Replaces {@code target} with {@code content}, readable by the owner only. */
    static void writePrivate(Path target, byte[] content) throws IOException {
        write(target, content, true);
    }

    /** Replaces {@code target} with {@code content} with default permissions (certificates). */
    static void writePublic(Path target, byte[] content) throws IOException {
        write(target, content, false);
    }

    /**
     * Makes an existing secret file owner-only when it is not.
     *
     * @return true when the permissions were changed
     */
    static boolean restrictToOwner(Path file) throws IOException {
        if (!posix(file)) {
            return false;
        }
        Set<PosixFilePermission> current = Files.getPosixFilePermissions(file);
        if (current.equals(OWNER_FILE)) {
            return false;
        }
        Files.setPosixFilePermissions(file, OWNER_FILE);
        return true;
    }

    private static void write(Path target, byte[] content, boolean secret) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        String prefix = "." + target.getFileName() + ".";
        Path temp = secret && posix(dir)
                ? Files.createTempFile(dir, prefix, ".tmp", PosixFilePermissions.asFileAttribute(OWNER_FILE))
                : Files.createTempFile(dir, prefix, ".tmp", new FileAttribute<?>[0]);
        try {
            Files.write(temp, content);
            if (!secret && posix(dir)) {
                // createTempFile makes 0600 files; certificates and the CA are meant to be shared.
                Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("rw-r--r--"));
            }
            try {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    private static boolean posix(Path path) {
        return path.getFileSystem().supportedFileAttributeViews().contains("posix");
    }
}
