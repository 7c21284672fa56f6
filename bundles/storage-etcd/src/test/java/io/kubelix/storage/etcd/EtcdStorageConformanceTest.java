package io.kubelix.storage.etcd;

import io.kubelix.api.storage.StorageBackend;
import io.kubelix.storage.testing.StorageConformanceTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The whole storage.Interface conformance suite against a real etcd. The tests share one etcd;
 * each gets a backend with a fresh key prefix, so it starts empty. Compaction is etcd's own.
 */
class EtcdStorageConformanceTest extends StorageConformanceTest {
    private static final AtomicInteger PREFIXES = new AtomicInteger();
    private static EtcdServer etcd;
    /** Keeps the gRPC client threads up between tests, so closing a test's backend does not wait for them. */
    private static EtcdStorageBackend keeper;

    @BeforeAll
    static void startEtcd() throws Exception {
        etcd = EtcdServer.start();
        keeper = backend("/keeper");
        keeper.session();
    }

    @AfterAll
    static void stopEtcd() throws Exception {
        if (keeper != null) {
            keeper.deactivate();
        }
        if (etcd != null) {
            etcd.close();
        }
    }

    static EtcdStorageBackend backend(String prefix) {
        EtcdSettings settings = EtcdSettings.read(Map.of("etcd-servers", etcd.endpoint(), "etcd-prefix", prefix,
                "etcd-compaction-interval", "0"), name -> null);
        return new EtcdStorageBackend(settings, Duration.ofMillis(500), null);
    }

    @Override
    protected StorageBackend newBackend() {
        return backend("/conformance-" + PREFIXES.incrementAndGet() + "/registry");
    }

    @Override
    protected void closeBackend(StorageBackend backend) {
        ((EtcdStorageBackend) backend).deactivate();
    }

    @Override
    protected void compact(StorageBackend backend, long revision) {
        ((EtcdStorageBackend) backend).session().client().compact(revision);
    }

    @Override
    protected Duration progressNotifyTimeout() {
        return Duration.ofSeconds(10);
    }
}
