package io.kubelix.storage.etcd;

import io.etcd.jetcd.ByteSequence;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Where storage keys live in etcd: {@code <prefix><key>}, so {@code /configmaps/default/app}
 * is {@code /registry/configmaps/default/app}. A directory {@code /a/b} covers the keys starting
 * with {@code <prefix>/a/b/} only, so {@code /configmaps/default} never includes
 * {@code /configmaps/default2/x}.
 */
final class Keys {
    private final String prefix;

    /** @param prefix etcd's key prefix such as {@code /registry}; a trailing "/" is dropped */
    Keys(String prefix) {
        String p = prefix == null ? "" : prefix.trim();
        while (p.endsWith("/")) {
            p = p.substring(0, p.length() - 1);
        }
        this.prefix = p;
    }

    String prefix() {
        return prefix;
    }

    /** The etcd key of one object. */
    ByteSequence object(String key) {
        requireKey(key);
        return bytes(prefix + key);
    }

    /** The etcd key prefix of a directory, ending in "/". */
    String directory(String key) {
        requireKey(key);
        return prefix + (key.endsWith("/") ? key : key + "/");
    }

    /** The storage key of an etcd key (without the prefix). */
    String storageKey(ByteSequence etcdKey) {
        return etcdKey.toString(StandardCharsets.UTF_8).substring(prefix.length());
    }

    static ByteSequence bytes(String s) {
        return ByteSequence.from(s, StandardCharsets.UTF_8);
    }

    /** The first key after every key starting with {@code dir} (etcd's range end of a prefix). */
    static ByteSequence rangeEnd(String dir) {
        byte[] b = dir.getBytes(StandardCharsets.UTF_8);
        for (int i = b.length - 1; i >= 0; i--) {
            if (b[i] != (byte) 0xff) {
                byte[] end = Arrays.copyOf(b, i + 1);
                end[i]++;
                return ByteSequence.from(end);
            }
        }
        return ByteSequence.from(new byte[] {0});
    }

    private static void requireKey(String key) {
        if (key == null || !key.startsWith("/")) {
            throw new IllegalArgumentException("storage key must start with '/': " + key);
        }
    }
}
