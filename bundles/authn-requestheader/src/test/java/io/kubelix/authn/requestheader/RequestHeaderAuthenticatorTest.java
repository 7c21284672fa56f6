package io.kubelix.authn.requestheader;

import io.kubelix.api.authn.AuthenticationRequest;
import io.kubelix.api.authn.ClusterAuthenticationInfo;
import io.kubelix.api.request.UserInfo;
import io.kubelix.authn.requestheader.RequestHeaderAuthenticator.Settings;
import io.kubelix.support.flags.TestCa;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * kube's request header authenticator: the headers name the user only when the front proxy's
 * certificate verifies (and has an allowed name); kube's conventional headers and their parsing.
 */
class RequestHeaderAuthenticatorTest {
    private static final Instant NOW = Instant.parse("2026-06-01T00:00:00Z");

    @TempDir
    Path dir;

    private TestCa proxyCa;
    private X509Certificate proxy;

    @Test
    void aFrontProxyNamesTheUserItsGroupsUidAndExtras() throws Exception {
        RequestHeaderAuthenticator authenticator = authenticator(List.of("front-proxy-client"));

        Optional<UserInfo> user = authenticator.authenticate(request(List.of(proxy), Map.of(
                "X-Remote-User", List.of("alice"),
                "X-Remote-Uid", List.of("a-1"),
                "X-Remote-Group", List.of("devs", "ops, with a comma"),
                "X-Remote-Extra-Scopes", List.of("read", "write"),
                "x-remote-extra-acme.com%2Fproject", List.of("p1"))));

        assertEquals(Optional.of(new UserInfo("alice", "a-1",
                List.of("devs", "ops, with a comma", UserInfo.ALL_AUTHENTICATED),
                Map.of("scopes", List.of("read", "write"), "acme.com/project", List.of("p1")))), user);
    }

    @Test
    void headersAreIgnoredWithoutAVerifiedProxyCertificate() throws Exception {
        RequestHeaderAuthenticator authenticator = authenticator(List.of());
        TestCa other = new TestCa("other", NOW);
        Map<String, List<String>> smuggled = Map.of("X-Remote-User", List.of("admin"),
                "X-Remote-Group", List.of("system:masters"));

        assertTrue(authenticator.authenticate(request(List.of(), smuggled)).isEmpty(), "no certificate");
        assertTrue(authenticator.authenticate(request(List.of(other.issue("front-proxy-client", List.of(),
                KeyPurposeId.id_kp_clientAuth, NOW.minusSeconds(60), NOW.plusSeconds(60))), smuggled)).isEmpty(),
                "a certificate of another CA");
        assertTrue(authenticator.authenticate(request(List.of(proxyCa.issue("front-proxy-client", List.of(),
                KeyPurposeId.id_kp_clientAuth, NOW.minusSeconds(7200), NOW.minusSeconds(3600))), smuggled)).isEmpty(),
                "an expired proxy certificate");
        assertEquals("admin", authenticator.authenticate(request(List.of(proxy), smuggled)).orElseThrow().name(),
                "any certificate of the CA when no names are configured");
    }

    @Test
    void onlyAllowedProxyNamesAreBelieved() throws Exception {
        RequestHeaderAuthenticator authenticator = authenticator(List.of("aggregator"));

        assertTrue(authenticator.authenticate(request(List.of(proxy), Map.of("X-Remote-User", List.of("alice"))))
                .isEmpty(), "front-proxy-client is not an allowed name");
    }

    @Test
    void aProxyRequestWithoutAUserHeaderIsLeftToTheOtherAuthenticators() throws Exception {
        RequestHeaderAuthenticator authenticator = authenticator(List.of());

        assertTrue(authenticator.authenticate(request(List.of(proxy), Map.of("X-Remote-Group", List.of("devs"))))
                .isEmpty());
        assertTrue(authenticator.authenticate(request(List.of(proxy), Map.of("X-Remote-User", List.of(""))))
                .isEmpty(), "an empty user header");
    }

    @Test
    void theFirstUsernameHeaderWithAValueWins() throws Exception {
        RequestHeaderAuthenticator authenticator = new RequestHeaderAuthenticator(new Settings(caFile(), List.of(),
                List.of("X-Forwarded-User", "X-Remote-User"), List.of(), List.of(), List.of()), Duration.ofSeconds(1),
                () -> 0, Clock.fixed(NOW, ZoneOffset.UTC));

        UserInfo user = authenticator.authenticate(request(List.of(proxy), Map.of("X-Forwarded-User", List.of(""),
                "X-Remote-User", List.of("bob")))).orElseThrow();

        assertEquals(new UserInfo("bob", "", List.of(UserInfo.ALL_AUTHENTICATED), Map.of()), user);
    }

    @Test
    void withoutUsernameHeadersItRecognisesNothing() throws Exception {
        RequestHeaderAuthenticator off = new RequestHeaderAuthenticator(Settings.of(name -> ""), Duration.ofSeconds(1),
                () -> 0, Clock.fixed(NOW, ZoneOffset.UTC));
        caFile();

        assertTrue(off.authenticate(request(List.of(proxy), Map.of("X-Remote-User", List.of("alice")))).isEmpty());
    }

    @Test
    void itPublishesItsSettingsForExtensionServersOnlyWhileEnabled() throws Exception {
        Path ca = caFile();
        RequestHeaderAuthenticator on = new RequestHeaderAuthenticator(new Settings(ca, List.of("front-proxy-client"),
                List.of("X-Remote-User"), List.of("X-Remote-Uid"), List.of("X-Remote-Group"), List.of("X-Remote-Extra-")),
                Duration.ofSeconds(1), () -> 0, Clock.fixed(NOW, ZoneOffset.UTC));
        assertEquals(new ClusterAuthenticationInfo(null, ca, List.of("front-proxy-client"), List.of("X-Remote-User"),
                List.of("X-Remote-Uid"), List.of("X-Remote-Group"), List.of("X-Remote-Extra-")),
                on.clusterAuthenticationInfo());

        RequestHeaderAuthenticator off = new RequestHeaderAuthenticator(Settings.of(name -> ""), Duration.ofSeconds(1),
                () -> 0, Clock.fixed(NOW, ZoneOffset.UTC));
        assertNull(off.clusterAuthenticationInfo().requestHeaderCAFile());
    }

    @Test
    void misconfigurationsAreRefusedWithWhatIsWrong() {
        IllegalArgumentException noCa = assertThrows(IllegalArgumentException.class, () -> Settings.of(
                name -> name.equals("username-headers") ? "X-Remote-User" : ""));
        assertTrue(noCa.getMessage().contains("--requestheader-client-ca-file is required"), noCa.getMessage());

        IllegalArgumentException empty = assertThrows(IllegalArgumentException.class, () -> Settings.of(
                name -> name.equals("group-headers") ? "X-Remote-Group,,X-Other" : ""));
        assertTrue(empty.getMessage().contains("empty header name"), empty.getMessage());

        IllegalArgumentException invalid = assertThrows(IllegalArgumentException.class, () -> Settings.of(
                name -> name.equals("username-headers") ? "X Remote User" : ""));
        assertTrue(invalid.getMessage().contains("not a valid header name"), invalid.getMessage());
    }

    private RequestHeaderAuthenticator authenticator(List<String> allowedNames) throws Exception {
        return new RequestHeaderAuthenticator(new Settings(caFile(), allowedNames, List.of("X-Remote-User"),
                List.of("X-Remote-Uid"), List.of("X-Remote-Group"), List.of("X-Remote-Extra-")),
                Duration.ofSeconds(1), () -> 0, Clock.fixed(NOW, ZoneOffset.UTC));
    }

    private Path caFile() throws Exception {
        proxyCa = new TestCa("front-proxy-ca", NOW);
        proxy = proxyCa.issue("front-proxy-client", List.of(), KeyPurposeId.id_kp_clientAuth, NOW.minusSeconds(60),
                NOW.plusSeconds(3600));
        Path file = dir.resolve("front-proxy-ca.crt");
        Files.writeString(file, proxyCa.pem(), StandardCharsets.US_ASCII);
        return file;
    }

    /** Headers as HTTP has them: names case-insensitive, several values per name. */
    private static AuthenticationRequest request(List<X509Certificate> chain, Map<String, List<String>> headers) {
        Map<String, List<String>> byName = new LinkedHashMap<>();
        headers.forEach((k, v) -> byName.computeIfAbsent(k.toLowerCase(Locale.ROOT), x -> new ArrayList<>()).addAll(v));
        return new AuthenticationRequest() {
            @Override
            public String header(String name) {
                List<String> values = headers(name);
                return values.isEmpty() ? null : values.get(0);
            }

            @Override
            public List<String> headers(String name) {
                return byName.getOrDefault(name.toLowerCase(Locale.ROOT), List.of());
            }

            @Override
            public Set<String> headerNames() {
                return new LinkedHashSet<>(headers.keySet());
            }

            @Override
            public List<X509Certificate> peerCertificates() {
                return chain;
            }

            @Override
            public String remoteAddress() {
                return "127.0.0.1";
            }
        };
    }
}
