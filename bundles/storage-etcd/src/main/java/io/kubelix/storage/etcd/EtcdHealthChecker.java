package io.kubelix.storage.etcd;

import io.kubelix.api.server.HealthChecker;

import java.time.Duration;

/** The {@code etcd} check of {@code /readyz} and {@code /livez}: etcd answers a read within a short time. */
final class EtcdHealthChecker implements HealthChecker {
    static final Duration TIMEOUT = Duration.ofSeconds(2);

    private final EtcdClient etcd;

    EtcdHealthChecker(EtcdClient etcd) {
        this.etcd = etcd;
    }

    @Override
    public String name() {
        return "etcd";
    }

    @Override
    public void check() {
        etcd.ping(TIMEOUT);
    }
}
