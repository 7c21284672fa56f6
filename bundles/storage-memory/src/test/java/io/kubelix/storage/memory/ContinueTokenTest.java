package io.kubelix.storage.memory;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubelix.api.errors.StatusException;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ContinueTokenTest {
    private final ObjectMapper mapper = new ObjectMapper();

    @Test
    void isBase64JsonOfRevisionAndRelativeStartKey() throws Exception {
        ContinueToken t = ContinueToken.after(KeyRange.directory("/configmaps"), 42, "/configmaps/default/b");
        String token = t.encode(mapper);
        String json = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
        assertEquals(mapper.readTree("{\"v\":\"meta.k8s.io/v1\",\"rv\":42,\"start\":\"default/b\\u0000\"}"),
                mapper.readTree(json));
        assertEquals(t, ContinueToken.decode(mapper, token));
    }

    @Test
    void rejectsWhatIsNotOurs() {
        for (String bad : new String[] {"%%%", "e30", encode("{\"v\":\"meta.k8s.io/v1\",\"rv\":0,\"start\":\"a\"}"),
                encode("{\"v\":\"meta.k8s.io/v1\",\"rv\":3,\"start\":\"../a\"}"), encode("[1]")}) {
            assertEquals(400, assertThrows(StatusException.class, () -> ContinueToken.decode(mapper, bad)).code(), bad);
        }
    }

    private static String encode(String json) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }
}
