package io.kubelix.storage.sql;

import io.kubelix.api.server.HealthChecker;

/** The {@code sqlite} or {@code postgres} readiness and liveness check: the database answers a read. */
final class SqlHealthChecker implements HealthChecker {
    private final String name;
    private final SqlStore store;

    SqlHealthChecker(String name, SqlStore store) {
        this.name = name;
        this.store = store;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void check() throws Exception {
        store.log().read(c -> SqlLog.meta(c, SqlLog.REVISION));
    }
}
