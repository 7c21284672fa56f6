package io.kubelix.apiextensions.customresource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.apiextensions.schema.Defaulting;
import io.kubelix.api.registry.StorageConversion;

/**
 * kube's {@code None} conversion between a served version of a CRD and its storage version: only
 * {@code apiVersion} changes. Objects read are also defaulted by the served version's schema, as
 * kube's decoder defaults what it reads from storage (so a default added to the CRD later shows on
 * objects stored before).
 */
final class NoneConversion implements StorageConversion {
    private final String servedApiVersion;
    private final String storageApiVersion;
    private final JsonNode schema;

    NoneConversion(String group, String servedVersion, String storageVersion, JsonNode schema) {
        this.servedApiVersion = group + "/" + servedVersion;
        this.storageApiVersion = group + "/" + storageVersion;
        this.schema = schema;
    }

    @Override
    public ObjectNode toStorage(ObjectNode obj) {
        if (storageApiVersion.equals(obj.path("apiVersion").asText())) {
            return obj;
        }
        ObjectNode stored = obj.deepCopy();
        stored.put("apiVersion", storageApiVersion);
        return stored;
    }

    @Override
    public ObjectNode fromStorage(ObjectNode stored) {
        ObjectNode served = stored.deepCopy();
        served.put("apiVersion", servedApiVersion);
        Defaulting.apply(served, schema);
        return served;
    }
}
