package io.kubelix.resource.core.quota;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.support.quantity.Quantity;

import java.util.Map;
import java.util.TreeMap;

/** kube's generic object count evaluator: each object is one of {@code count/<resource>[.<group>]} (and of kube's legacy name). */
record ObjectCountEvaluator(String group, String resourceName) implements QuotaEvaluator {

    private String countName() {
        return "count/" + resourceName + (group.isEmpty() ? "" : "." + group);
    }

    @Override
    public GroupVersionResource resource() {
        return QuotaResources.counted(countName());
    }

    @Override
    public boolean matchesResource(String name) {
        return QuotaResources.counts(name, group, resourceName);
    }

    @Override
    public Map<String, Quantity> usage(ObjectNode obj) {
        Map<String, Quantity> usage = new TreeMap<>();
        usage.put(countName(), ResourceLists.ONE);
        if (group.isEmpty() && QuotaResources.LEGACY.containsKey(resourceName)) {
            usage.put(resourceName, ResourceLists.ONE);
        }
        return usage;
    }
}
