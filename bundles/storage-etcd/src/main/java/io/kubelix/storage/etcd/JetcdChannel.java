package io.kubelix.storage.etcd;

import io.etcd.jetcd.Client;
import io.grpc.Channel;

import java.lang.reflect.Field;
import java.lang.reflect.Method;

/**
 * The gRPC channel inside a jetcd client, which jetcd does not expose: the KV calls use it
 * directly, so they share the client's one connection, name resolution, TLS and interceptors
 * rather than opening a second connection configured a second time. Read through jetcd 0.8's
 * private {@code ClientImpl.connectionManager.getChannel()}; a jetcd without them fails the
 * backend's start, and every etcd test, instead of a write.
 */
final class JetcdChannel {
    private JetcdChannel() {
    }

    static Channel of(Client client) {
        try {
            Field manager = client.getClass().getDeclaredField("connectionManager");
            manager.setAccessible(true);
            Object connections = manager.get(client);
            Method channel = connections.getClass().getDeclaredMethod("getChannel");
            channel.setAccessible(true);
            return (Channel) channel.invoke(connections);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("cannot reach the gRPC channel of jetcd's " + client.getClass().getName()
                    + ": " + e, e);
        }
    }
}
