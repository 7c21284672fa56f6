package io.kubelix.storage.etcd;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.storage.GetOptions;
import io.kubelix.api.storage.ListOptions;
import io.kubelix.api.storage.StorageException;
import io.kubelix.api.storage.StorageInterface;
import io.kubelix.api.storage.Watch;
import io.kubelix.api.storage.WatchEvent;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static io.kubelix.storage.etcd.EtcdTestSupport.CONFIGMAPS;
import static io.kubelix.storage.etcd.EtcdTestSupport.configMap;
import static io.kubelix.storage.etcd.EtcdTestSupport.key;
import static io.kubelix.storage.etcd.EtcdTestSupport.next;
import static io.kubelix.storage.etcd.EtcdTestSupport.rv;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** TLS to etcd with client certificate auth (--etcd-cafile, --etcd-certfile, --etcd-keyfile). */
class EtcdTlsTest {
    private static EtcdServer etcd;
    private static TestCertificates certs;

    @BeforeAll
    static void startEtcd() throws Exception {
        EtcdServer.requireBinary();
        Path dir = Files.createTempDirectory("kubelix-etcd-tls");
        certs = new TestCertificates(dir);
        etcd = EtcdServer.startTls(dir, certs.serverCert, certs.serverKey, certs.ca);
    }

    @AfterAll
    static void stopEtcd() throws Exception {
        if (etcd != null) {
            etcd.close();
        }
    }

    @Test
    void clientCertificateAuthWorks() throws Exception {
        EtcdStorageBackend b = EtcdTestSupport.backend(etcd.endpoint(), "/tls/registry", Map.of(
                "etcd-cafile", certs.ca.toString(), "etcd-certfile", certs.clientCert.toString(),
                "etcd-keyfile", certs.clientKey.toString()));
        try {
            assertTrue(b.settings().tls());
            StorageInterface s = b.forResource(CONFIGMAPS);
            ObjectNode created = s.create(key("secure"), configMap("secure", "1"));
            assertEquals(created, s.get(key("secure"), GetOptions.DEFAULT));
            try (Watch w = s.watch("/configmaps/default", ListOptions.recursiveAll().withResourceVersion("0"))) {
                WatchEvent e = next(w, Duration.ofSeconds(10));
                assertEquals(rv(created), rv(e.object()));
            }
            new EtcdHealthChecker(b.session().client()).check();
        } finally {
            b.deactivate();
        }
    }

    @Test
    void clientWithoutCertificateFailsClearly() {
        assertRefused(Map.of("etcd-cafile", certs.ca.toString()));
    }

    @Test
    void clientWithCertificateOfAnotherCaFailsClearly() {
        assertRefused(Map.of("etcd-cafile", certs.ca.toString(), "etcd-certfile", certs.strangerCert.toString(),
                "etcd-keyfile", certs.strangerKey.toString()));
    }

    private static void assertRefused(Map<String, String> tls) {
        EtcdStorageBackend b = EtcdTestSupport.backend(etcd.endpoint(), "/tls/registry", tls);
        try {
            StorageInterface s = b.forResource(CONFIGMAPS);
            long start = System.nanoTime();
            StorageException e = assertThrows(StorageException.class, () -> s.get(key("secure"),
                    new GetOptions(true, "")));
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertEquals(StorageException.Code.UNREACHABLE, e.code(), e.getMessage());
            assertTrue(e.getMessage().startsWith("etcd is unreachable") && e.getMessage().contains("SSLHandshakeException"),
                    "the error says TLS failed: " + e.getMessage());
            assertTrue(took.compareTo(Duration.ofSeconds(15)) < 0, "failed in " + took);
            IllegalStateException health = assertThrows(IllegalStateException.class,
                    () -> new EtcdHealthChecker(b.session().client()).check());
            assertTrue(health.getMessage().contains("SSLHandshakeException"), health.getMessage());
        } finally {
            b.deactivate();
        }
    }
}
