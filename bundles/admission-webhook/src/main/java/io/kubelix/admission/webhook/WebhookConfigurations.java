package io.kubelix.admission.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.informer.SharedIndexInformer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The webhooks of one kind of configuration (mutating or validating), read through its informer
 * (kube's {@code configuration.NewMutatingWebhookConfigurationManager}): configurations in name
 * order, each one's webhooks in their order, rebuilt only when the informer has seen a change.
 */
final class WebhookConfigurations {
    private static final Duration READY_WAIT = Duration.ofSeconds(10);

    private record Snapshot(String resourceVersion, List<Webhook> webhooks) {
    }

    private final SharedIndexInformer informer;
    private volatile Snapshot snapshot = new Snapshot(null, List.of());

    WebhookConfigurations(SharedIndexInformer informer) {
        this.informer = informer;
    }

    /**
     * The current webhooks; waits up to 10 s for the first list, as kube's plugin waits for its
     * source to be ready.
     *
     * @throws IllegalStateException when the configurations could not be read in time
     */
    List<Webhook> webhooks() {
        if (!informer.hasSynced()) {
            try {
                if (!informer.waitForSync(READY_WAIT)) {
                    throw new IllegalStateException("not yet ready to handle request");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("not yet ready to handle request");
            }
        }
        String rv = informer.lastSyncResourceVersion();
        Snapshot s = snapshot;
        if (rv.equals(s.resourceVersion())) {
            return s.webhooks();
        }
        List<Webhook> webhooks = new ArrayList<>();
        for (ObjectNode configuration : informer.lister().list()) {
            String name = configuration.path("metadata").path("name").asText();
            int i = 0;
            for (JsonNode hook : configuration.path("webhooks")) {
                webhooks.add(new Webhook(name + "/" + hook.path("name").asText() + "/" + i++, name, hook));
            }
        }
        snapshot = new Snapshot(rv, List.copyOf(webhooks));
        return snapshot.webhooks();
    }
}
