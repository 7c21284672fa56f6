package io.kubelix.authn.serviceaccount;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.informer.SharedIndexInformer;
import io.kubelix.api.informer.SharedInformerFactory;
import io.kubelix.api.schema.GroupVersionResource;

import java.time.Duration;
import java.util.Optional;

/**
 * Looks the objects up in the server's shared informers (kube-apiserver's getter over its
 * service account, secret, pod and node listers). The service account informer starts with the
 * plugin; those of pods, secrets and nodes when a token bound to one is first seen, since most
 * tokens are not bound and a cache of every secret is not free. A cache that has not synced
 * within {@link #SYNC_WAIT} cannot answer, and the token is refused.
 */
final class InformerTokenGetter implements ServiceAccountTokenGetter {
    static final Duration SYNC_WAIT = Duration.ofSeconds(10);
    private static final GroupVersionResource SERVICE_ACCOUNTS = new GroupVersionResource("", "v1", "serviceaccounts");
    private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
    private static final GroupVersionResource SECRETS = new GroupVersionResource("", "v1", "secrets");
    private static final GroupVersionResource NODES = new GroupVersionResource("", "v1", "nodes");

    private final SharedInformerFactory informers;

    InformerTokenGetter(SharedInformerFactory informers) {
        this.informers = informers;
        informers.forResource(SERVICE_ACCOUNTS);
    }

    @Override
    public Optional<ObjectNode> serviceAccount(String namespace, String name) {
        return synced(SERVICE_ACCOUNTS).lister().byNamespace(namespace).get(name);
    }

    @Override
    public Optional<ObjectNode> pod(String namespace, String name) {
        return synced(PODS).lister().byNamespace(namespace).get(name);
    }

    @Override
    public Optional<ObjectNode> secret(String namespace, String name) {
        return synced(SECRETS).lister().byNamespace(namespace).get(name);
    }

    @Override
    public Optional<ObjectNode> node(String name) {
        return synced(NODES).lister().get(name);
    }

    private SharedIndexInformer synced(GroupVersionResource resource) {
        SharedIndexInformer informer = informers.forResource(resource);
        try {
            if (informer.hasSynced() || informer.waitForSync(SYNC_WAIT)) {
                return informer;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        throw StatusException.serviceUnavailable("the " + resource.resource() + " cache has not synced: "
                + "service account tokens cannot be checked yet");
    }
}
