package io.kubelix.junit.impl;

import io.kubelix.junit.KubelixServer;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A server kept in a JUnit store, with the clients made for it: closed with the store's context
 * (the test class, or the whole run for a shared server), clients first.
 */
public final class ServerResource implements ExtensionContext.Store.CloseableResource {
    private final KubelixServer server;
    private final Map<String, Client> clients = new LinkedHashMap<>();

    private record Client(Object instance, ClientAdapter adapter) {
    }

    public ServerResource(KubelixServer server) {
        this.server = server;
    }

    public KubelixServer server() {
        return server;
    }

    /** The client of the named type for this server, made on first use; null when no adapter knows the type. */
    public synchronized Object client(String typeName) {
        Client client = clients.get(typeName);
        if (client == null) {
            ClientAdapter adapter = ClientAdapter.forType(typeName);
            if (adapter == null) {
                return null;
            }
            try {
                client = new Client(adapter.create(server.kubeconfig()), adapter);
            } catch (Exception e) {
                throw new IllegalStateException("cannot make a " + typeName + " for Kubelix: " + e, e);
            }
            clients.put(typeName, client);
        }
        return client.instance();
    }

    @Override
    public synchronized void close() {
        for (Client client : clients.values()) {
            try {
                client.adapter().close(client.instance());
            } catch (Exception e) {
                // the server stops anyway, and with it every connection
            }
        }
        clients.clear();
        server.close();
    }
}
