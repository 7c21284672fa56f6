package io.kubelix.storage.etcd;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One real etcd for all the tests of a class ({@code @RegisterExtension static final}), started
 * before the first and removed after the last; skips the class when no etcd is installed.
 */
final class EtcdPerClass implements BeforeAllCallback, AfterAllCallback {
    private EtcdServer server;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        server = EtcdServer.start();
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        if (server != null) {
            server.close();
            server = null;
        }
    }

    String endpoint() {
        return server.endpoint();
    }
}
