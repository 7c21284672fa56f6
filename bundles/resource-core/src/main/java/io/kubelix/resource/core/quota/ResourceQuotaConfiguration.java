package io.kubelix.resource.core.quota;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.support.quantity.Quantity;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The ResourceQuota plugin's {@code Configuration} ({@code apiserver.config.k8s.io/v1}, or
 * {@code resourcequota.admission.k8s.io/v1beta1} and {@code v1alpha1}), as
 * {@code --admission-control-config-file} gives it: the resources whose consumption is limited by
 * default, which a namespace may consume only under a quota that covers them.
 *
 * @param limitedResources kube's {@code limitedResources}
 */
record ResourceQuotaConfiguration(List<LimitedResource> limitedResources) {
    static final ResourceQuotaConfiguration DEFAULT = new ResourceQuotaConfiguration(List.of());
    private static final Set<String> API_VERSIONS = Set.of("apiserver.config.k8s.io/v1",
            "resourcequota.admission.k8s.io/v1beta1", "resourcequota.admission.k8s.io/v1alpha1");

    /**
     * One limited resource: objects of {@code apiGroup}/{@code resource} that consume a quota resource
     * whose name contains one of {@code matchContains} need a quota limiting that quota resource, and
     * objects within one of {@code matchScopes} (of any resource) need a quota of that scope.
     */
    record LimitedResource(String apiGroup, String resource, List<String> matchContains,
                           List<QuotaScopes.Selector> matchScopes) {
    }

    /**
     * A {@code Configuration} object.
     *
     * @throws IllegalArgumentException with kube's field errors when it is not valid
     */
    static ResourceQuotaConfiguration of(JsonNode config) {
        if (!"Configuration".equals(config.path("kind").asText())
                || !API_VERSIONS.contains(config.path("apiVersion").asText())) {
            throw new IllegalArgumentException("not a ResourceQuota Configuration of apiserver.config.k8s.io/v1 or "
                    + "resourcequota.admission.k8s.io/v1beta1 or v1alpha1");
        }
        List<String> errors = new ArrayList<>();
        List<LimitedResource> limited = new ArrayList<>();
        JsonNode list = config.path("limitedResources");
        for (int i = 0; i < list.size(); i++) {
            JsonNode l = list.get(i);
            String resource = l.path("resource").asText("");
            if (resource.isEmpty()) {
                errors.add("limitedResources[" + i + "].resource: Required value");
            }
            List<String> contains = new ArrayList<>();
            l.path("matchContains").forEach(c -> contains.add(c.asText()));
            List<QuotaScopes.Selector> scopes = new ArrayList<>();
            l.path("matchScopes").forEach(s -> scopes.add(QuotaScopes.selector(s)));
            limited.add(new LimitedResource(l.path("apiGroup").asText(""), resource, List.copyOf(contains),
                    List.copyOf(scopes)));
        }
        if (!errors.isEmpty()) {
            throw new IllegalArgumentException(String.join(", ", errors));
        }
        return new ResourceQuotaConfiguration(List.copyOf(limited));
    }

    /**
     * kube's limitedByDefault over the limited resources of {@code resource}: the quota resources the
     * object consumes (more than zero of) whose names contain one of their {@code matchContains}.
     */
    Set<String> limitedByDefault(GroupResource resource, Map<String, Quantity> usage) {
        Set<String> names = new TreeSet<>();
        for (LimitedResource l : limitedResources) {
            if (!l.apiGroup().equals(resource.group()) || !l.resource().equals(resource.resource())) {
                continue;
            }
            usage.forEach((name, q) -> {
                if (q.signum() > 0 && l.matchContains().stream().anyMatch(name::contains)) {
                    names.add(name);
                }
            });
        }
        return names;
    }
}
