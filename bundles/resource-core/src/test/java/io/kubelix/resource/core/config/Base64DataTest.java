package io.kubelix.resource.core.config;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class Base64DataTest {

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void decodesPaddedStandardBase64() {
        assertArrayEquals(bytes(""), Base64Data.decode(""));
        assertArrayEquals(bytes("f"), Base64Data.decode("Zg=="));
        assertArrayEquals(bytes("fo"), Base64Data.decode("Zm8="));
        assertArrayEquals(bytes("foo"), Base64Data.decode("Zm9v"));
        assertArrayEquals(bytes("foobar"), Base64Data.decode("Zm9vYmFy"));
        assertArrayEquals(new byte[]{(byte) 0xfb, (byte) 0xff}, Base64Data.decode("+/8="));
    }

    @Test
    void skipsLineBreaksAsGoDoes() {
        assertArrayEquals(bytes("foobar"), Base64Data.decode("Zm9v\r\nYmFy\n"));
        assertArrayEquals(bytes("f"), Base64Data.decode("Zg=\n="));
    }

    @Test
    void requiresPaddingUnlikeJavasDecoder() {
        assertFalse(Base64Data.isValid("Zg"));
        assertEquals("illegal base64 data at input byte 0",
                assertThrows(IllegalArgumentException.class, () -> Base64Data.decode("Zm9")).getMessage());
        assertEquals("illegal base64 data at input byte 4",
                assertThrows(IllegalArgumentException.class, () -> Base64Data.decode("Zm9vY")).getMessage());
    }

    @Test
    void namesTheOffendingByte() {
        assertEquals("illegal base64 data at input byte 3",
                assertThrows(IllegalArgumentException.class, () -> Base64Data.decode("Zm9!")).getMessage());
        assertEquals("illegal base64 data at input byte 1",
                assertThrows(IllegalArgumentException.class, () -> Base64Data.decode("Z===")).getMessage());
        // data after the padding
        assertEquals("illegal base64 data at input byte 4",
                assertThrows(IllegalArgumentException.class, () -> Base64Data.decode("Zg==Zg==")).getMessage());
        // URL-safe alphabet is not the standard one
        assertFalse(Base64Data.isValid("-_8="));
        assertTrue(Base64Data.isValid("+/8="));
    }

    @Test
    void encodesCanonically() {
        assertEquals("Zm9vYmFy", Base64Data.encode(bytes("foobar")));
        assertEquals("Zg==", Base64Data.encode(bytes("f")));
    }
}
