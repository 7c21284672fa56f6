package io.kubelix.runtime.bootstrap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.Security;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DataDirectoryTest {

    private static final List<String> FILES = List.of("pki/ca.crt", "pki/ca.key", "pki/apiserver.crt",
            "pki/apiserver.key", "pki/admin.crt", "pki/admin.key", "tokens.csv");

    @TempDir
    Path temp;

    @Test
    void firstPrepareCreatesEveryFile() throws Exception {
        Path dir = temp.resolve("data");
        DataDirectory data = DataDirectory.prepare(dir, List.of());

        for (String file : FILES) {
            assertTrue(Files.isRegularFile(dir.resolve(file)), file);
        }
        assertEquals(dir.resolve("pki/ca.crt").toAbsolutePath(), data.caCertificate());
        assertEquals(dir.resolve("tokens.csv").toAbsolutePath(), data.tokenFile());
        assertTrue(data.adminToken().matches("[A-Za-z0-9_-]{43}"), data.adminToken());
        assertEquals(data.adminToken() + ",admin,admin,\"system:masters\"\n",
                Files.readString(data.tokenFile(), StandardCharsets.UTF_8));
        assertTrue(Files.readString(dir.resolve("pki/ca.key")).startsWith("-----BEGIN PRIVATE KEY-----"));

        if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            for (String secret : List.of("pki/ca.key", "pki/apiserver.key", "pki/admin.key", "tokens.csv")) {
                assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve(secret))),
                        secret);
            }
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
        }
    }

    @Test
    void anExistingDirectoryOthersCouldReadIsMadeOwnerOnly() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"));
        Path dir = temp.resolve("made-by-mkdir");
        Files.createDirectories(dir.resolve("pki"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(dir.resolve("pki"), PosixFilePermissions.fromString("rwxr-xr-x"));

        DataDirectory.prepare(dir, List.of());

        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("pki"))));
    }

    @Test
    void secondPrepareReusesEveryFileByteForByte() throws Exception {
        DataDirectory first = DataDirectory.prepare(temp, List.of("node1.example.com"));
        Map<String, byte[]> before = snapshot(temp);

        DataDirectory second = DataDirectory.prepare(temp, List.of("node1.example.com"));

        Map<String, byte[]> after = snapshot(temp);
        for (String file : FILES) {
            assertArrayEquals(before.get(file), after.get(file), file);
        }
        assertEquals(first.adminToken(), second.adminToken());
        try (Stream<Path> files = Files.list(temp.resolve("pki"))) {
            assertEquals(6, files.count(), "no temporary files left behind");
        }
    }

    /** As in Karaf, whose SSH server registers BouncyCastle in the JVM: a restart reads back the keys it wrote. */
    @Test
    void aBouncyCastleProviderRegisteredInTheJvmDoesNotBreakARestart() throws Exception {
        DataDirectory.prepare(temp, List.of());
        Map<String, byte[]> before = snapshot(temp);
        Security.addProvider(new BouncyCastleProvider());
        try {
            assertEquals("EC", PemFiles.readPrivateKey(temp.resolve("pki/ca.key")).getAlgorithm());

            DataDirectory.prepare(temp, List.of());
        } finally {
            Security.removeProvider(BouncyCastleProvider.PROVIDER_NAME);
        }
        Map<String, byte[]> after = snapshot(temp);
        for (String file : FILES) {
            assertArrayEquals(before.get(file), after.get(file), file);
        }
    }

    @Test
    void theAdminClientCertificateIsSystemMastersSignedByTheCaForClientAuth() throws Exception {
        DataDirectory.prepare(temp, List.of("localhost"));
        X509Certificate ca = PemFiles.readCertificate(temp.resolve("pki/ca.crt"));
        X509Certificate admin = PemFiles.readCertificate(temp.resolve("pki/admin.crt"));

        admin.verify(ca.getPublicKey());
        assertEquals("CN=admin,O=system:masters", admin.getSubjectX500Principal().getName());
        assertEquals(List.of("1.3.6.1.5.5.7.3.2"), admin.getExtendedKeyUsage());
    }

    @Test
    void servingCertificateIsSignedByTheCaAndCoversTheHosts() throws Exception {
        DataDirectory.prepare(temp, List.of("kubelix.example.com", "10.1.2.3", "[fd00::1]", " ", "Node-2", "0.0.0.0", "::"));
        X509Certificate ca = PemFiles.readCertificate(temp.resolve("pki/ca.crt"));
        X509Certificate serving = PemFiles.readCertificate(temp.resolve("pki/apiserver.crt"));

        serving.verify(ca.getPublicKey());
        ca.verify(ca.getPublicKey());
        serving.checkValidity();
        assertEquals("CN=kubelix-ca", ca.getSubjectX500Principal().getName());
        assertEquals(ca.getSubjectX500Principal(), serving.getIssuerX500Principal());
        assertTrue(ca.getBasicConstraints() >= 0, "the CA is a CA");
        assertEquals(-1, serving.getBasicConstraints(), "the serving certificate is not a CA");
        assertEquals(List.of("1.3.6.1.5.5.7.3.1"), serving.getExtendedKeyUsage());
        assertTrue(Duration.between(ca.getNotBefore().toInstant(), ca.getNotAfter().toInstant()).toDays() >= 3650);
        assertTrue(Duration.between(serving.getNotBefore().toInstant(), serving.getNotAfter().toInstant()).toDays() >= 365);

        SubjectAltNames names = SubjectAltNames.of(serving);
        assertEquals(java.util.Set.of("127.0.0.1", "0:0:0:0:0:0:0:1", "10.1.2.3", "fd00:0:0:0:0:0:0:1"),
                names.ipAddresses());
        assertEquals(java.util.Set.of("localhost", "kubelix.example.com", "node-2"), names.dnsNames());
    }

    @Test
    void aNewHostReissuesOnlyTheServingCertificate() throws Exception {
        DataDirectory.prepare(temp, List.of());
        Map<String, byte[]> before = snapshot(temp);

        DataDirectory.prepare(temp, List.of("api.example.org", "192.168.7.7"));

        Map<String, byte[]> after = snapshot(temp);
        assertFalse(java.util.Arrays.equals(before.get("pki/apiserver.crt"), after.get("pki/apiserver.crt")));
        for (String kept : List.of("pki/ca.crt", "pki/ca.key", "tokens.csv")) {
            assertArrayEquals(before.get(kept), after.get(kept), kept);
        }
        X509Certificate serving = PemFiles.readCertificate(temp.resolve("pki/apiserver.crt"));
        serving.verify(PemFiles.readCertificate(temp.resolve("pki/ca.crt")).getPublicKey());
        assertTrue(SubjectAltNames.of(serving).dnsNames().contains("api.example.org"));
        assertTrue(SubjectAltNames.of(serving).ipAddresses().contains("192.168.7.7"));

        // Fewer hosts than the certificate covers: it is kept.
        DataDirectory.prepare(temp, List.of("API.example.org"));
        assertArrayEquals(after.get("pki/apiserver.crt"), snapshot(temp).get("pki/apiserver.crt"));
    }

    @Test
    void aServingCertificateExpiringWithin30DaysIsReissued() throws Exception {
        DataDirectory.prepare(temp, List.of());
        byte[] before = Files.readAllBytes(temp.resolve("pki/apiserver.crt"));

        Clock later = Clock.offset(Clock.system(ZoneOffset.UTC), Duration.ofDays(340));
        DataDirectory.prepare(temp, List.of(), later);

        X509Certificate serving = PemFiles.readCertificate(temp.resolve("pki/apiserver.crt"));
        assertFalse(java.util.Arrays.equals(before, Files.readAllBytes(temp.resolve("pki/apiserver.crt"))));
        assertTrue(serving.getNotAfter().toInstant().isAfter(later.instant().plus(Duration.ofDays(360))));
    }

    @Test
    void aNewCaReissuesTheServingCertificate() throws Exception {
        DataDirectory.prepare(temp, List.of());
        Files.delete(temp.resolve("pki/ca.crt"));
        Files.delete(temp.resolve("pki/ca.key"));

        DataDirectory.prepare(temp, List.of());

        X509Certificate serving = PemFiles.readCertificate(temp.resolve("pki/apiserver.crt"));
        serving.verify(PemFiles.readCertificate(temp.resolve("pki/ca.crt")).getPublicKey());
    }

    @Test
    void kubeconfigHasTheClusterUserAndContext() throws Exception {
        DataDirectory data = DataDirectory.prepare(temp, List.of());

        Path path = data.writeKubeconfig("https://127.0.0.1:6443");

        assertEquals(temp.resolve("admin.kubeconfig").toAbsolutePath(), path);
        JsonNode config = new YAMLMapper().readTree(path.toFile());
        assertEquals("v1", config.path("apiVersion").asText());
        assertEquals("Config", config.path("kind").asText());
        assertEquals("kubelix", config.path("current-context").asText());
        JsonNode cluster = config.path("clusters").get(0);
        assertEquals("kubelix", cluster.path("name").asText());
        assertEquals("https://127.0.0.1:6443", cluster.path("cluster").path("server").asText());
        assertArrayEquals(Files.readAllBytes(data.caCertificate()),
                Base64.getDecoder().decode(cluster.path("cluster").path("certificate-authority-data").asText()));
        JsonNode user = config.path("users").get(0);
        assertEquals("admin", user.path("name").asText());
        assertEquals(data.adminToken(), user.path("user").path("token").asText());
        JsonNode context = config.path("contexts").get(0);
        assertEquals("kubelix", context.path("name").asText());
        assertEquals("kubelix", context.path("context").path("cluster").asText());
        assertEquals("admin", context.path("context").path("user").asText());
        if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(path)));
        }

        byte[] written = Files.readAllBytes(path);
        DataDirectory.prepare(temp, List.of()).writeKubeconfig("https://127.0.0.1:6443");
        assertArrayEquals(written, Files.readAllBytes(path), "the same inputs give the same file");
    }

    @Test
    void corruptFilesAreReportedWithTheFileAndTheFix() throws Exception {
        DataDirectory.prepare(temp, List.of());
        Path caCrt = temp.resolve("pki/ca.crt");
        byte[] original = Files.readAllBytes(caCrt);

        Files.writeString(caCrt, "not a certificate");
        IllegalStateException corrupt = assertThrows(IllegalStateException.class,
                () -> DataDirectory.prepare(temp, List.of()));
        assertTrue(corrupt.getMessage().contains(caCrt.toAbsolutePath().toString()), corrupt.getMessage());
        assertTrue(corrupt.getMessage().contains("delete"), corrupt.getMessage());

        Files.delete(caCrt);
        IllegalStateException half = assertThrows(IllegalStateException.class,
                () -> DataDirectory.prepare(temp, List.of()));
        assertTrue(half.getMessage().contains("ca.key"), half.getMessage());

        Files.write(caCrt, original);
        Files.writeString(temp.resolve("tokens.csv"), "# hand-edited\nsecret,alice,alice-uid,\"dev\"\n");
        IllegalStateException noAdmin = assertThrows(IllegalStateException.class,
                () -> DataDirectory.prepare(temp, List.of()));
        assertTrue(noAdmin.getMessage().contains("tokens.csv") && noAdmin.getMessage().contains("admin"),
                noAdmin.getMessage());
    }

    @Test
    void anExistingTokenFileKeepsItsOtherLines() throws Exception {
        String content = "# users\nalice-token,alice,alice,\"dev,ops\"\n\nadmin-token,admin,admin,\"system:masters\"\n";
        Files.writeString(temp.resolve("tokens.csv"), content);

        DataDirectory data = DataDirectory.prepare(temp, List.of());

        assertEquals("admin-token", data.adminToken());
        assertEquals(content, Files.readString(temp.resolve("tokens.csv")));
    }

    @Test
    void aServingHostThatIsNoHostIsRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DataDirectory.prepare(temp, List.of("https://example.com:6443")));
        assertTrue(e.getMessage().contains("https://example.com:6443"), e.getMessage());
    }

    private static Map<String, byte[]> snapshot(Path dir) throws IOException {
        Map<String, byte[]> files = new LinkedHashMap<>();
        for (String file : FILES) {
            files.put(file, Files.readAllBytes(dir.resolve(file)));
        }
        return files;
    }
}
