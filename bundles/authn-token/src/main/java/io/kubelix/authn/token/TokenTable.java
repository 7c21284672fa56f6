package io.kubelix.authn.token;

import io.kubelix.api.request.UserInfo;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;

/**
 * The users of one version of a token file, found by their token. Tokens are kept and looked up
 * by SHA-256: a lookup's timing then depends on the hash, which tells an attacker nothing about
 * the token, and the final comparison is constant-time.
 */
final class TokenTable {

    static final TokenTable EMPTY = new TokenTable(Map.of());

    /** One line of the file: the SHA-256 of its token and the user it stands for. */
    record Entry(byte[] sha256, UserInfo user) {
    }

    private final Map<String, Entry> byHash;

    /** @param byHash entries keyed by the hex SHA-256 of their token, as {@link #hash} makes it */
    TokenTable(Map<String, Entry> byHash) {
        this.byHash = Map.copyOf(byHash);
    }

    static byte[] sha256(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    static String hash(byte[] sha256) {
        return HexFormat.of().formatHex(sha256);
    }

    Optional<UserInfo> lookup(String token) {
        byte[] digest = sha256(token);
        Entry entry = byHash.get(hash(digest));
        if (entry == null || !MessageDigest.isEqual(entry.sha256(), digest)) {
            return Optional.empty();
        }
        return Optional.of(entry.user());
    }

    int size() {
        return byHash.size();
    }
}
