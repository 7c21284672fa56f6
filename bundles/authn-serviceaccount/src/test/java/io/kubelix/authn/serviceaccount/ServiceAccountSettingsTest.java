package io.kubelix.authn.serviceaccount;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ServiceAccountSettingsTest {

    @Test
    void kubesDefaults() {
        ServiceAccountSettings s = ServiceAccountSettings.resolve(k -> "", k -> null);
        assertEquals("https://kubernetes.default.svc.cluster.local", s.issuer());
        assertNull(s.signingKeyFile());
        assertNull(s.maxTokenExpiration());
        assertEquals(Path.of(".kubelix").toAbsolutePath().normalize(), s.dataDir());
    }

    @Test
    void theComponentsConfigurationBeforeTheFrameworkProperties() {
        Map<String, String> props = Map.of("kubelix.service-account-issuer", "https://flag.example",
                "kubelix.service-account-max-token-expiration", "24h", "kubelix.data-dir", "/srv/kubelix",
                "kubelix.service-account-signing-key-file", "/etc/sa.key");
        ServiceAccountSettings s = ServiceAccountSettings.resolve(
                k -> k.equals("service-account-issuer") ? "https://config.example" : "", props::get);
        assertEquals("https://config.example", s.issuer());
        assertEquals(Duration.ofHours(24), s.maxTokenExpiration());
        assertEquals(Path.of("/srv/kubelix"), s.dataDir());
        assertEquals(Path.of("/etc/sa.key"), s.signingKeyFile());
    }

    @Test
    void malformedSettingsAreNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ServiceAccountSettings.resolve(k -> "", Map.of("kubelix.service-account-issuer", "http://x")::get));
        assertEquals("--service-account-issuer \"http://x\" contained a ':' but was not a valid URL with the https scheme",
                e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> ServiceAccountSettings.resolve(k -> "",
                Map.of("kubelix.service-account-max-token-expiration", "10m")::get));
        assertEquals("--service-account-max-token-expiration \"10m\" must be between 1 hour and 2^32 seconds",
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ServiceAccountSettings.resolve(k -> "",
                Map.of("kubelix.service-account-max-token-expiration", "1d")::get));
        assertEquals(Duration.ofMinutes(90), ServiceAccountSettings.resolve(k -> "",
                Map.of("kubelix.service-account-max-token-expiration", "1h30m")::get).maxTokenExpiration());
    }
}
