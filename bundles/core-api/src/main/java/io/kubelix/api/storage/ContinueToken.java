package io.kubelix.api.storage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubelix.api.errors.StatusException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * A list's continue token, as kube-apiserver's storage makes it (storage.EncodeContinue):
 * base64url of {@code {"v":"meta.k8s.io/v1","rv":<revision>,"start":"<next key, relative to the
 * listed directory>"}}. Opaque to clients; the next page reads from {@code start} at revision
 * {@code rv}. Backends share it so a token means the same on every backend.
 *
 * @param revision the revision every page of the list is read at
 * @param start    the first key of the next page, relative to the listed directory
 */
public record ContinueToken(long revision, String start) {
    /** The revision of a token that continues at the current revision (kube's inconsistent continue). */
    public static final long LATEST = -1;
    private static final String VERSION = "meta.k8s.io/v1";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The token of a page whose last key was {@code lastKey} under {@code directory}: the next page starts just after it. */
    public static ContinueToken after(String directory, long revision, String lastKey) {
        String dir = directory.endsWith("/") ? directory : directory + "/";
        return new ContinueToken(revision, lastKey.substring(dir.length()) + "\u0000");
    }

    /** Whether the next page is read at the current revision rather than at {@link #revision()}. */
    public boolean latest() {
        return revision == LATEST;
    }

    /** The same position, read at the current revision. */
    public ContinueToken atLatest() {
        return new ContinueToken(LATEST, start);
    }

    public String encode() {
        try {
            byte[] json = JSON.writeValueAsBytes(JSON.createObjectNode()
                    .put("v", VERSION).put("rv", revision).put("start", start));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(json);
        } catch (IOException e) {
            throw StatusException.internalError("cannot encode continue token", e);
        }
    }

    /** @throws StatusException 400 BadRequest when the token is not a continue token */
    public static ContinueToken decode(String token) {
        try {
            JsonNode json = JSON.readTree(new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8));
            if (json == null || !VERSION.equals(json.path("v").asText()) || !json.path("rv").canConvertToLong()
                    || !validRevision(json.path("rv").asLong()) || !json.path("start").isTextual()) {
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

    private static boolean validRevision(long rv) {
        return rv > 0 || rv == LATEST;
    }

    private static StatusException invalid(String why) {
        return StatusException.badRequest("continue key is not valid: " + why);
    }
}
