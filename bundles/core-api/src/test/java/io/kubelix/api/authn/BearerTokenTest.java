package io.kubelix.api.authn;

import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

class BearerTokenTest {

    @Test
    void readsTheTokenOfABearerHeader() {
        assertEquals(Optional.of("abc"), BearerToken.from("Bearer abc"));
        assertEquals(Optional.of("abc"), BearerToken.from("  bearer   abc  "));
        assertEquals(Optional.of("abc"), BearerToken.from("BEARER\tabc"));
    }

    @Test
    void ignoresOtherHeaders() {
        assertEquals(Optional.empty(), BearerToken.from(null));
        assertEquals(Optional.empty(), BearerToken.from(""));
        assertEquals(Optional.empty(), BearerToken.from("Bearer"));
        assertEquals(Optional.empty(), BearerToken.from("Bearer   "));
        assertEquals(Optional.empty(), BearerToken.from("Basic YWxpY2U6cHc="));
        assertEquals(Optional.empty(), BearerToken.from("Bearerabc"));
    }
}
