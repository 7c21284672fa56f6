package io.kubelix.apiextensions.customresource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.apiextensions.schema.Defaulting;
import io.kubelix.api.registry.StorageConversion;

import java.util.List;

/**
 * kube's {@code Webhook} conversion between a served version of a CRD and its storage version: an
 * object written in another version than the storage version, and one read from storage in another
 * version than the one asked for, goes through the CRD's {@link ConversionWebhook}; a list is
 * converted in one review. Objects read are defaulted by the served version's schema, as with
 * {@link NoneConversion}.
 */
final class WebhookConversion implements StorageConversion {
    private final String servedApiVersion;
    private final String storageApiVersion;
    private final JsonNode schema;
    private final ConversionWebhook webhook;

    WebhookConversion(String group, String servedVersion, String storageVersion, JsonNode schema, ConversionWebhook webhook) {
        this.servedApiVersion = group + "/" + servedVersion;
        this.storageApiVersion = group + "/" + storageVersion;
        this.schema = schema;
        this.webhook = webhook;
    }

    @Override
    public ObjectNode toStorage(ObjectNode obj) {
        return webhook.convert(List.of(obj), storageApiVersion, false).get(0);
    }

    @Override
    public ObjectNode fromStorage(ObjectNode stored) {
        return served(webhook.convert(List.of(stored), servedApiVersion, false).get(0));
    }

    @Override
    public List<ObjectNode> fromStorage(List<ObjectNode> stored) {
        return webhook.convert(stored, servedApiVersion, true).stream().map(this::served).toList();
    }

    /** A copy (the stored object may be shared), defaulted. */
    private ObjectNode served(ObjectNode obj) {
        ObjectNode served = obj.deepCopy();
        Defaulting.apply(served, schema);
        return served;
    }
}
