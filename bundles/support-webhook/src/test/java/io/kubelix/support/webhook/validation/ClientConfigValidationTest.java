package io.kubelix.support.webhook.validation;

import io.kubelix.api.errors.FieldError;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** kube's ValidateCABundle, with client-go's reasons for a bundle no TLS client would trust. */
class ClientConfigValidationTest {
    /** A self-signed certificate (CN=ca, EC P-256), generated once with openssl. */
    private static final String CERT = """
            -----BEGIN CERTIFICATE-----
            MIIBcDCCARWgAwIBAgIUc3mDUuuXOYWRMydmiRLL3nu4ThkwCgYIKoZIzj0EAwIw
            DTELMAkGA1UEAwwCY2EwHhcNMjYxMTI4MDkxNzM0WhcNMzYxMTI1MDkxNzM0WjAN
            MQswCQYDVQQDDAJjYTBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABHjHHYHvz65x
            XTEOTOOkcC1jefYXkKdl6MjH9A7TUvimAzjfvTAopf6xtgS4GasCG6l4hT9tKHhT
            EA0Lw8QhTiOjUzBRMB0GA1UdDgQWBBSQ4Bi0WcIZlhhTzf+TnU8prtMDAjAfBgNV
            HSMEGDAWgBSQ4Bi0WcIZlhhTzf+TnU8prtMDAjAPBgNVHRMBAf8EBTADAQH/MAoG
            CCqGSM49BAMCA0kAMEYCIQC2Cv5B5Ci7f0P04PAq80a3fS6HucKj9K5JOXz9O7Mc
            cAIhAIJU7s7oYLDqTFCg78hJfDpIDXALhQNEvAvXvfC3lD6h
            -----END CERTIFICATE-----
            """;

    private static List<String> caBundle(String pem) {
        String b64 = Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.US_ASCII));
        return ClientConfigValidation.caBundle(b64, "caBundle").stream().map(FieldError::detail).toList();
    }

    @Test
    void aBundleWithACertificateIsValidWhateverElseItHolds() {
        assertEquals(List.of(), caBundle(CERT));
        assertEquals(List.of(), caBundle("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n" + CERT + "trailing"));
    }

    @Test
    void reasonsAreClientGos() {
        assertEquals(List.of("unable to parse bytes as PEM block"), caBundle("not pem"));
        assertEquals(List.of("no valid certificate authority data seen"),
                caBundle("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----"));
        assertEquals(List.of("unable to parse bytes as PEM block"),
                caBundle("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"));
        assertEquals(1, caBundle("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n").size());
        assertTrue(caBundle("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n").get(0)
                .startsWith("failed to parse certificate: "));
    }
}
