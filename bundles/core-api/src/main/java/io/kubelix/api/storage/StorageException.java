package io.kubelix.api.storage;

import org.osgi.annotation.versioning.ProviderType;

/** storage.StorageError: a key-level failure, turned into a Status error by the generic Store. */
@ProviderType
public class StorageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** What went wrong, as k8s' storage error codes. */
    public enum Code {
        KEY_NOT_FOUND,
        KEY_EXISTS,
        RESOURCE_VERSION_CONFLICTS,
        INVALID_OBJECT,
        UNREACHABLE,
        INTERNAL
    }

    private final Code code;
    private final String key;
    private final long resourceVersion;

    public StorageException(Code code, String key, long resourceVersion, String message) {
        super(message);
        this.code = code;
        this.key = key;
        this.resourceVersion = resourceVersion;
    }

    public StorageException(Code code, String key, String message, Throwable cause) {
        super(message, cause);
        this.code = code;
        this.key = key;
        this.resourceVersion = 0;
    }

    public static StorageException keyNotFound(String key) {
        return new StorageException(Code.KEY_NOT_FOUND, key, 0, "key not found: " + key);
    }

    public static StorageException keyExists(String key, long rev) {
        return new StorageException(Code.KEY_EXISTS, key, rev, "key exists: " + key);
    }

    /** A precondition (uid or resourceVersion) failed; {@code message} says which, in kube-apiserver's words. */
    public static StorageException conflict(String key, long rev, String message) {
        return new StorageException(Code.RESOURCE_VERSION_CONFLICTS, key, rev, message);
    }

    public Code code() {
        return code;
    }

    public String key() {
        return key;
    }

    /** The revision the failure was observed at, or 0. */
    public long resourceVersion() {
        return resourceVersion;
    }
}
