package io.kubelix.runtime.server;

import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLContext;
import java.security.Security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** --tls-provider: auto takes Conscrypt where it runs, jdk keeps the JDK's, anything else is refused. */
class TlsProviderTest {
    @Test
    void autoAndConscryptServeWithConscryptWhereItsNativeLibraryLoads() throws Exception {
        // Jetty's Conscrypt ALPN processor registers one by name when a connector starts in this JVM
        // (an earlier test's); choosing must not register another.
        java.security.Provider registered = Security.getProvider("Conscrypt");
        TlsProvider.Choice auto = TlsProvider.choose("auto");
        TlsProvider.Choice conscrypt = TlsProvider.choose("conscrypt");

        assertEquals("Conscrypt", auto.provider().getName());
        assertEquals("Conscrypt", conscrypt.provider().getName());
        assertTrue(auto.description().matches("Conscrypt \\d+\\.\\d+\\.\\d+ \\(BoringSSL\\)"), auto.description());
        SSLContext context = SSLContext.getInstance("TLS", auto.provider());
        context.init(null, null, null);
        assertTrue(context.createSSLEngine().getClass().getName().startsWith("org.conscrypt."));
        assertSame(registered, Security.getProvider("Conscrypt"), "the provider is used as an object, not registered by name");
    }

    @Test
    void jdkKeepsTheJdksDefault() {
        TlsProvider.Choice jdk = TlsProvider.choose("jdk");

        assertNull(jdk.provider());
        assertTrue(jdk.description().startsWith("the JDK's"), jdk.description());
    }

    @Test
    void anUnknownProviderIsRefusedWithTheChoices() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TlsProvider.choose("openssl"));

        assertEquals("invalid --tls-provider \"openssl\": must be auto, conscrypt or jdk", e.getMessage());
    }
}
