package io.kubelix.support.storage;

/**
 * The keys a list, count or watch covers: one key, or a directory. A directory {@code /a/b} covers
 * only keys starting with {@code /a/b/}, so {@code /configmaps/default} never includes
 * {@code /configmaps/default2/x}.
 */
public final class KeyRange {
    private final String key;
    private final boolean recursive;
    private final String prefix;

    private KeyRange(String key, boolean recursive) {
        if (key == null || key.isEmpty()) {
            throw new IllegalArgumentException("empty storage key");
        }
        this.key = key;
        this.recursive = recursive;
        this.prefix = key.endsWith("/") ? key : key + "/";
    }

    public static KeyRange directory(String key) {
        return new KeyRange(key, true);
    }

    public static KeyRange of(String key, boolean recursive) {
        return new KeyRange(key, recursive);
    }

    public String key() {
        return key;
    }

    public boolean recursive() {
        return recursive;
    }

    /** The directory prefix, ending in "/"; continue tokens are relative to it. */
    public String prefix() {
        return prefix;
    }

    public boolean matches(String k) {
        return recursive ? k.startsWith(prefix) : k.equals(key);
    }

    @Override
    public String toString() {
        return recursive ? prefix : key;
    }
}
