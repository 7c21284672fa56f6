package io.kubelix.storage.etcd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubelix.api.errors.StatusException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * kube's etcd3 continue token: base64url of {@code {"v":"meta.k8s.io/v1","rv":R,"start":"<key>"}}
 * where {@code start} is the next page's first key relative to the listed directory, read at
 * revision {@code rv}.
 */
record ContinueToken(long revision, String start) {
    private static final String VERSION = "meta.k8s.io/v1";

    String encode(ObjectMapper mapper) {
        try {
            byte[] json = mapper.writeValueAsBytes(mapper.createObjectNode()
                    .put("v", VERSION).put("rv", revision).put("start", start));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(json);
        } catch (IOException e) {
            throw StatusException.internalError("cannot encode continue token", e);
        }
    }

    /** @throws StatusException 400 when the token is not a continue token */
    static ContinueToken decode(ObjectMapper mapper, String token) {
        JsonNode json;
        try {
            json = mapper.readTree(new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException | IOException e) {
            throw invalid(e.getMessage());
        }
        if (json == null || !VERSION.equals(json.path("v").asText()) || !json.path("rv").canConvertToLong()
                || json.path("rv").asLong() <= 0 || !json.path("start").isTextual()) {
            throw invalid("not a continue token");
        }
        String start = json.path("start").asText();
        if (start.isEmpty() || start.startsWith("/") || start.contains("..")) {
            throw invalid("invalid start key");
        }
        return new ContinueToken(json.path("rv").asLong(), start);
    }

    private static StatusException invalid(String why) {
        return StatusException.badRequest("continue key is not valid: " + why);
    }
}
