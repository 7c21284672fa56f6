package io.kubelix.resource.core.quota;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.resource.core.pod.PodQOS;
import io.kubelix.support.quantity.Quantity;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * kube's pod quota evaluator (pkg/quota/v1/evaluator/core/pods.go): a pod that has not finished
 * is charged its requests and limits ({@code requests.cpu}, {@code cpu}, {@code limits.memory},
 * {@code requests.ephemeral-storage}, hugepages, {@code requests.<extended resource>}) and one of
 * {@code pods}; every pod is one of {@code count/pods}. The pod's amount is the sum of its
 * containers' or the largest of its init containers', whichever is more, plus its overhead. A
 * quota that tracks cpu or memory needs every container to say them.
 */
final class PodEvaluator implements QuotaEvaluator {
    static final PodEvaluator INSTANCE = new PodEvaluator();
    static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");

    /** kube's podResources. */
    private static final Set<String> RESOURCES = Set.of("count/pods", "cpu", "memory", "ephemeral-storage",
            "requests.cpu", "requests.memory", "requests.ephemeral-storage", "limits.cpu", "limits.memory",
            "limits.ephemeral-storage", "pods");
    /** kube's validationSet: the resources every container must set when a quota tracks them. */
    private static final Set<String> MUST_SPECIFY = Set.of("requests.cpu", "requests.memory", "limits.cpu",
            "limits.memory", "cpu", "memory");
    private static final List<String> PREFIXES = List.of("hugepages-", "requests.hugepages-");

    private PodEvaluator() {
    }

    @Override
    public GroupVersionResource resource() {
        return PODS;
    }

    @Override
    public boolean matchesResource(String name) {
        return RESOURCES.contains(name) || PREFIXES.stream().anyMatch(name::startsWith)
                || name.startsWith("requests.") && !isNative(name);
    }

    @Override
    public boolean matchesScopes(List<QuotaScopes.Selector> scopes, ObjectNode pod) {
        return scopes.stream().allMatch(s -> s.matches(pod));
    }

    @Override
    public List<QuotaScopes.Selector> matchingScopes(ObjectNode pod, List<QuotaScopes.Selector> selectors) {
        return selectors.stream().filter(s -> s.matches(pod)).toList();
    }

    @Override
    public Map<String, Quantity> usage(ObjectNode pod) {
        Map<String, Quantity> usage = new TreeMap<>();
        usage.put("count/pods", ResourceLists.ONE);
        if (!QuotaScopes.live(pod)) {
            return usage;
        }
        JsonNode spec = pod.path("spec");
        ResourceLists.add(usage, computeUsage(podAmount(spec, "requests"), podAmount(spec, "limits")));
        return usage;
    }

    /** kube's PodRequests and PodLimits: the containers' sum or the largest init container, plus the overhead. */
    static Map<String, Quantity> podAmount(JsonNode spec, String which) {
        Map<String, Quantity> sum = new TreeMap<>();
        for (JsonNode c : spec.path("containers")) {
            ResourceLists.add(sum, ResourceLists.read(c.path("resources").path(which)));
        }
        for (JsonNode c : spec.path("initContainers")) {
            ResourceLists.max(sum, ResourceLists.read(c.path("resources").path(which)));
        }
        Map<String, Quantity> overhead = ResourceLists.read(spec.path("overhead"));
        if (which.equals("limits")) {
            // Overhead is added only to what is limited: a missing limit stays unlimited.
            overhead.keySet().retainAll(sum.keySet());
        }
        ResourceLists.add(sum, overhead);
        return sum;
    }

    /** kube's podComputeUsageHelper: the quota resources that requests and limits are charged as. */
    private static Map<String, Quantity> computeUsage(Map<String, Quantity> requests, Map<String, Quantity> limits) {
        Map<String, Quantity> result = new TreeMap<>();
        result.put("pods", ResourceLists.ONE);
        for (String r : new String[] {"cpu", "memory", "ephemeral-storage"}) {
            if (requests.containsKey(r)) {
                result.put(r, requests.get(r));
                result.put("requests." + r, requests.get(r));
            }
            if (limits.containsKey(r)) {
                result.put("limits." + r, limits.get(r));
            }
        }
        requests.forEach((r, q) -> {
            if (r.startsWith("hugepages-")) {
                result.put(r, q);
                result.put("requests." + r, q);
            } else if (!isNative(r) && !r.startsWith("requests.")) {
                // An extended resource: quota only knows it as requests.<name>, as it cannot be overcommitted.
                result.put("requests." + r, q);
            }
        });
        return result;
    }

    @Override
    public String constraints(Set<String> required, ObjectNode pod) {
        Set<String> requiredSet = new TreeSet<>(required);
        requiredSet.retainAll(MUST_SPECIFY);
        Map<String, Set<String>> missing = new TreeMap<>();
        for (String list : new String[] {"containers", "initContainers"}) {
            for (JsonNode c : pod.path("spec").path(list)) {
                Set<String> has = computeUsage(ResourceLists.read(c.path("resources").path("requests")),
                        ResourceLists.read(c.path("resources").path("limits"))).keySet();
                for (String r : requiredSet) {
                    if (!has.contains(r)) {
                        missing.computeIfAbsent(r, k -> new TreeSet<>()).add(c.path("name").asText());
                    }
                }
            }
        }
        if (missing.isEmpty()) {
            return null;
        }
        List<String> messages = new ArrayList<>();
        missing.forEach((r, containers) -> messages.add(r + " for: " + String.join(",", containers)));
        return "must specify " + String.join("; ", messages);
    }

    /** kube's IsNativeResource: no domain, or a kubernetes.io one. */
    private static boolean isNative(String name) {
        return !name.contains("/") || name.contains("kubernetes.io/");
    }

    static boolean bestEffort(ObjectNode pod) {
        return "BestEffort".equals(PodQOS.qosClass(pod.path("spec")));
    }
}
