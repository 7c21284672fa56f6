package io.kubelix.runtime.server;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** --tls-min-version and --tls-cipher-suites as kube-apiserver reads them. */
class TlsOptionsTest {

    @Test
    void theMinimumVersionSelectsItAndLaterOnes() {
        assertEquals(List.of("TLSv1.2", "TLSv1.3"), TlsOptions.parse("VersionTLS12", "").protocols());
        assertEquals(List.of("TLSv1.3"), TlsOptions.parse("VersionTLS13", "").protocols());
        assertEquals(List.of(), TlsOptions.parse("VersionTLS12", "").cipherSuites(), "the provider's own list");
        assertEquals("invalid tls-min-version \"1.2\": must be one of VersionTLS10, VersionTLS11, VersionTLS12, "
                + "VersionTLS13", assertThrows(IllegalArgumentException.class,
                () -> TlsOptions.parse("1.2", "")).getMessage());
    }

    @Test
    void cipherSuitesKeepTheTls13OnesAndUnknownOnesAreNamed() {
        TlsOptions options = TlsOptions.parse("VersionTLS12", "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, ");
        assertEquals(List.of("TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "TLS_AES_128_GCM_SHA256",
                "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256"), options.cipherSuites());

        TlsOptions bogus = TlsOptions.parse("VersionTLS12", "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,TLS_NOT_A_SUITE");
        assertEquals("tls-cipher-suites: unsupported by the TLS provider: TLS_NOT_A_SUITE",
                assertThrows(IllegalArgumentException.class, () -> bogus.checkSupported(
                        List.of("TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256"))).getMessage());
        assertThrows(IllegalArgumentException.class, () -> TlsOptions.parse("VersionTLS12", "rc4"));
    }
}
