package io.kubelix.storage.etcd;

import io.kubelix.api.metrics.Counter;
import io.kubelix.api.metrics.Gauge;
import io.kubelix.api.metrics.Histogram;
import io.kubelix.api.metrics.MetricsRegistry;

import io.kubelix.api.server.HealthChecker;
import org.junit.jupiter.api.Test;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The DS component's life: idle unless etcd3 is the backend in use, the etcd health check only while in use. */
class EtcdStorageBackendTest {
    /** A metrics registry that keeps nothing. */
    private static final MetricsRegistry NO_METRICS = new MetricsRegistry() {
        @Override
        public Counter counter(String name, String help, List<String> labelNames) {
            return (amount, labelValues) -> { };
        }

        @Override
        public Gauge gauge(String name, String help, List<String> labelNames) {
            return new Gauge() {
                @Override
                public void set(double value, String... labelValues) {
                }

                @Override
                public void add(double delta, String... labelValues) {
                }
            };
        }

        @Override
        public Histogram histogram(String name, String help, List<Double> buckets, List<String> labelNames) {
            return (value, labelValues) -> { };
        }
    };


    /** A BundleContext that answers framework properties from a map and records service registrations. */
    private static final class Framework {
        final List<Object> registered = new ArrayList<>();
        final List<Object> unregistered = new ArrayList<>();
        final BundleContext context;

        Framework(Map<String, String> properties) {
            context = (BundleContext) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[] {BundleContext.class}, (proxy, method, args) -> switch (method.getName()) {
                        case "getProperty" -> properties.get((String) args[0]);
                        case "registerService" -> {
                            Object service = args[1];
                            registered.add(service);
                            yield Proxy.newProxyInstance(getClass().getClassLoader(),
                                    new Class<?>[] {ServiceRegistration.class}, (p, m, a) -> {
                                        if (m.getName().equals("unregister")) {
                                            unregistered.add(service);
                                        }
                                        return null;
                                    });
                        }
                        default -> throw new UnsupportedOperationException(method.getName());
                    });
        }
    }

    @Test
    void idleWhenAnotherBackendIsInUse() {
        Framework fw = new Framework(Map.of("kubelix.storage-backend", "memory"));
        EtcdStorageBackend backend = new EtcdStorageBackend(Map.of(), fw.context, NO_METRICS);
        assertFalse(backend.started(), "no client, no thread");
        assertEquals(List.of(), fw.registered, "no etcd health check for a server on another backend");
        backend.deactivate();
    }

    @Test
    void startsWithItsHealthCheckWhenEtcd3IsInUse() {
        Framework fw = new Framework(Map.of("kubelix.storage-backend", "etcd3",
                "kubelix.etcd-servers", "http://127.0.0.1:1", "kubelix.etcd-compaction-interval", "0"));
        EtcdStorageBackend backend = new EtcdStorageBackend(Map.of(), fw.context, NO_METRICS);
        assertTrue(backend.started());
        assertEquals(1, fw.registered.size());
        HealthChecker check = (HealthChecker) fw.registered.get(0);
        assertEquals("etcd", check.name());
        backend.deactivate();
        assertEquals(fw.registered, fw.unregistered, "the health check leaves with the backend");
        assertEquals(List.of(), ClientThreads.alive().stream().map(Thread::getName).toList());
    }

    @Test
    void startsOnFirstUseOtherwise() {
        Framework fw = new Framework(Map.of("kubelix.etcd-servers", "http://127.0.0.1:1"));
        EtcdStorageBackend backend = new EtcdStorageBackend(Map.of("etcd-compaction-interval", "0"), fw.context, NO_METRICS);
        assertFalse(backend.started());
        backend.forResource(EtcdTestSupport.CONFIGMAPS);
        assertTrue(backend.started());
        assertEquals(1, fw.registered.size());
        backend.deactivate();
        assertEquals(1, fw.unregistered.size());
    }
}
