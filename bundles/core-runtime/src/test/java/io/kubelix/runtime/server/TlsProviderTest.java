package io.kubelix.runtime.server;

import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLContext;
import java.security.Security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** --tls-provider: auto takes Conscrypt where it runs, jdk keeps the JDK's, anything else is refused. */
class TlsProviderTest {
    @Test
    void autoAndConscryptServeWithConscryptWhereItsNativeLibraryLoads() throws Exception {
        TlsProvider.Choice auto = TlsProvider.choose("auto");
        TlsProvider.Choice conscrypt = TlsProvider.choose("conscrypt");

        assertEquals("Conscrypt", auto.name());
        assertEquals("Conscrypt", conscrypt.name());
        assertTrue(auto.description().matches("Conscrypt \\d+\\.\\d+\\.\\d+ \\(BoringSSL\\)"), auto.description());
        assertEquals("Conscrypt", SSLContext.getInstance("TLS", auto.name()).getProvider().getName());
        assertTrue(Security.getProviders()[0].getName().startsWith("SUN"),
                "registering Conscrypt does not change the JDK's default provider");
    }

    @Test
    void jdkKeepsTheJdksDefault() {
        TlsProvider.Choice jdk = TlsProvider.choose("jdk");

        assertNull(jdk.name());
        assertTrue(jdk.description().startsWith("the JDK's"), jdk.description());
    }

    @Test
    void anUnknownProviderIsRefusedWithTheChoices() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TlsProvider.choose("openssl"));

        assertEquals("invalid --tls-provider \"openssl\": must be auto, conscrypt or jdk", e.getMessage());
    }
}
