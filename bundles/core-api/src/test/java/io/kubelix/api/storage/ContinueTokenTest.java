package io.kubelix.api.storage;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubelix.api.errors.StatusException;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ContinueTokenTest {
    private final ObjectMapper mapper = new ObjectMapper();

    @Test
    void isBase64JsonOfRevisionAndRelativeStartKey() throws Exception {
        ContinueToken t = ContinueToken.after("/configmaps", 42, "/configmaps/default/b");
        String token = t.encode();
        String json = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
        assertEquals(mapper.readTree("{\"v\":\"meta.k8s.io/v1\",\"rv\":42,\"start\":\"default/b\\u0000\"}"),
                mapper.readTree(json));
        assertEquals(t, ContinueToken.decode(token));
    }

    @Test
    void rejectsWhatIsNotOurs() {
        for (String bad : new String[] {"%%%", "e30", encode("{\"v\":\"meta.k8s.io/v1\",\"rv\":0,\"start\":\"a\"}"),
                encode("{\"v\":\"meta.k8s.io/v1\",\"rv\":-2,\"start\":\"a\"}"),
                encode("{\"v\":\"meta.k8s.io/v1\",\"rv\":3,\"start\":\"../a\"}"), encode("[1]")}) {
            assertEquals(400, assertThrows(StatusException.class, () -> ContinueToken.decode(bad)).code(), bad);
        }
    }

    @Test
    void resourceVersionErrorsAreKubeApiserversStatuses() {
        StatusException tooLarge = StorageErrors.tooLargeResourceVersion(50, 10);
        assertEquals(504, tooLarge.code());
        assertEquals("Too large resource version: 50, current: 10", tooLarge.getMessage());
        assertEquals("ResourceVersionTooLarge", tooLarge.details().causes().get(0).type());
        assertEquals(1, tooLarge.details().retryAfterSeconds());
        assertEquals(410, StorageErrors.tooOldResourceVersion(3, 7).code());
        assertEquals("Expired", StorageErrors.continueExpired().reason().wireName());
    }

    @Test
    void anExpiredTokensGoneOffersTheSamePositionAtTheCurrentRevision() {
        ContinueToken expired = ContinueToken.after("/configmaps", 42, "/configmaps/default/b");
        StatusException gone = StorageErrors.continueExpired(expired);
        assertEquals(410, gone.code());
        assertEquals("Expired", gone.reason().wireName());
        assertTrue(gone.getMessage().contains("use the continue token in this response"), gone.getMessage());

        ContinueToken offered = ContinueToken.decode(gone.continueToken());
        assertTrue(offered.latest());
        assertEquals(ContinueToken.LATEST, offered.revision());
        assertEquals("default/b\u0000", offered.start());
        assertFalse(expired.latest());
    }

    private static String encode(String json) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }
}
