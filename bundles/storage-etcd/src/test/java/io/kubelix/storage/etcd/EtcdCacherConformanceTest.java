package io.kubelix.storage.etcd;

import io.kubelix.api.storage.StorageBackend;
import io.kubelix.runtime.storage.cacher.Cacher;
import io.kubelix.runtime.storage.cacher.CacherOptions;
import io.kubelix.storage.testing.StorageConformanceTest;
import io.kubelix.storage.testing.ThroughTheWatchCache;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The whole storage.Interface conformance suite through core-runtime's watch cache (the Cacher
 * every resource's storage sits behind in a running server) over a real etcd: the combination a
 * server started with {@code --storage-backend=etcd3} serves. Each test gets a fresh key prefix,
 * so it starts empty; the Cacher lists and watches that prefix through storage-etcd. Compaction is
 * etcd's own, as in {@link EtcdStorageConformanceTest}.
 * <p>
 * One test does not apply, see {@link ThroughTheWatchCache}.
 */
@ExtendWith(ThroughTheWatchCache.class)
class EtcdCacherConformanceTest extends StorageConformanceTest {
    /** The options of core-runtime's CacherConformanceTest: short bookmark interval, so the bookmark tests stay fast. */
    static final CacherOptions OPTIONS = new CacherOptions(1000, 1000, Duration.ofMillis(50), Duration.ofMillis(200),
            Duration.ofSeconds(3));
    private static final AtomicInteger PREFIXES = new AtomicInteger();
    private static EtcdServer etcd;
    /** Keeps the gRPC client threads up between tests, so closing a test's backend does not wait for them. */
    private static EtcdStorageBackend keeper;

    private final Map<StorageBackend, EtcdStorageBackend> etcdBackends = new IdentityHashMap<>();
    private final List<Cacher> cachers = new ArrayList<>();

    @BeforeAll
    static void startEtcd() throws Exception {
        etcd = EtcdServer.start();
        keeper = EtcdTestSupport.backend(etcd.endpoint(), "/keeper");
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

    @Override
    protected StorageBackend newBackend() {
        EtcdStorageBackend etcdBackend = EtcdTestSupport.backend(etcd.endpoint(),
                "/cacher-conformance-" + PREFIXES.incrementAndGet() + "/registry");
        StorageBackend cached = config -> {
            Cacher c = new Cacher(etcdBackend.forResource(config), config.groupResource(), config.resourcePrefix(),
                    OPTIONS);
            synchronized (cachers) {
                cachers.add(c);
            }
            return c;
        };
        etcdBackends.put(cached, etcdBackend);
        return cached;
    }

    @Override
    protected void closeBackend(StorageBackend backend) {
        synchronized (cachers) {
            cachers.forEach(Cacher::stop);
            cachers.clear();
        }
        EtcdStorageBackend etcdBackend = etcdBackends.remove(backend);
        if (etcdBackend != null) {
            etcdBackend.deactivate();
        }
    }

    @Override
    protected void compact(StorageBackend backend, long revision) {
        etcdBackends.get(backend).session().client().compact(revision);
    }

    @Override
    protected Duration progressNotifyTimeout() {
        return Duration.ofSeconds(10);
    }
}
