package io.kubelix.storage.memory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * A list's continue token, as kube's etcd3 store makes it: base64url of
 * {@code {"v":"meta.k8s.io/v1","rv":<revision>,"start":"<next key, relative to the directory>"}}.
 * Opaque to clients; the next page reads from {@code start} at revision {@code rv}.
 */
record ContinueToken(long revision, String start) {
    private static final String VERSION = "meta.k8s.io/v1";

    /** The token of a page that ended at {@code lastKey}: the next page starts just after it. */
    static ContinueToken after(KeyRange range, long revision, String lastKey) {
        return new ContinueToken(revision, lastKey.substring(range.prefix().length()) + "\u0000");
    }

    String encode(ObjectMapper mapper) {
        ObjectNode json = mapper.createObjectNode().put("v", VERSION).put("rv", revision).put("start", start);
        try {
            return Base64.getUrlEncoder().withoutPadding().encodeToString(mapper.writeValueAsBytes(json));
        } catch (IOException e) {
            throw StatusException.internalError("cannot encode continue token", e);
        }
    }

    /** @throws StatusException 400 when the token is not one of ours */
    static ContinueToken decode(ObjectMapper mapper, String token) {
        try {
            JsonNode json = mapper.readTree(new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8));
            if (json == null || !VERSION.equals(json.path("v").asText()) || !json.path("rv").canConvertToLong()
                    || json.path("rv").asLong() <= 0 || !json.path("start").isTextual()) {
                throw invalid("not a continue token");
            }
            String start = json.path("start").asText();
            if (start.isEmpty() || start.startsWith("/") || start.contains("..")) {
                throw invalid("invalid start key");
            }
            return new ContinueToken(json.path("rv").asLong(), start);
        } catch (IllegalArgumentException | IOException e) {
            throw invalid(e.getMessage());
        }
    }

    private static StatusException invalid(String why) {
        return StatusException.badRequest("continue key is not valid: " + why);
    }
}
