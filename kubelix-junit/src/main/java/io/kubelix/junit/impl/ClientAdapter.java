package io.kubelix.junit.impl;

import java.nio.file.Path;

/**
 * Makes and closes one kind of Kubernetes client for a server. Implementations name the client
 * library's types, so they are loaded by name only once a test asked for that type, which proves
 * the library is on the test class path.
 */
public interface ClientAdapter {
    /** A client ready to use as the admin user of the server whose kubeconfig this is. */
    Object create(Path kubeconfig) throws Exception;

    /** Releases the client's threads and connections. */
    void close(Object client) throws Exception;

    /** The adapter of a client type, by the type's name; null when there is none. */
    static ClientAdapter forType(String typeName) {
        String adapter = switch (typeName) {
            case "io.fabric8.kubernetes.client.KubernetesClient" -> "io.kubelix.junit.impl.Fabric8ClientAdapter";
            case "io.kubernetes.client.openapi.ApiClient" -> "io.kubelix.junit.impl.ClientJavaAdapter";
            default -> null;
        };
        if (adapter == null) {
            return null;
        }
        try {
            return (ClientAdapter) Class.forName(adapter).getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException | LinkageError e) {
            throw new IllegalStateException("cannot make a " + typeName + ": " + e, e);
        }
    }
}
