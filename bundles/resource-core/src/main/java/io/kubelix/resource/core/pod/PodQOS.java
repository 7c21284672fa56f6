package io.kubelix.resource.core.pod;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.resource.core.common.Quantities;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * kube's GetPodQOS (pkg/apis/core/helper/qos): a pod is {@code BestEffort} when no container
 * requests or limits CPU or memory, {@code Guaranteed} when every container limits both and the
 * pod's summed requests equal its summed limits, {@code Burstable} otherwise. Run it on a defaulted
 * pod, where requests have been filled in from limits.
 */
public final class PodQOS {
    private static final List<String> COMPUTE = List.of("cpu", "memory");

    private PodQOS() {
    }

    public static String qosClass(JsonNode spec) {
        Map<String, BigDecimal> requests = new HashMap<>();
        Map<String, BigDecimal> limits = new HashMap<>();
        boolean guaranteed = true;
        for (String list : new String[] {"containers", "initContainers"}) {
            for (JsonNode c : spec.path(list)) {
                add(c.path("resources").path("requests"), requests);
                Set<String> limited = add(c.path("resources").path("limits"), limits);
                if (!limited.containsAll(COMPUTE)) {
                    guaranteed = false;
                }
            }
        }
        if (requests.isEmpty() && limits.isEmpty()) {
            return "BestEffort";
        }
        if (guaranteed) {
            for (Map.Entry<String, BigDecimal> r : requests.entrySet()) {
                BigDecimal limit = limits.get(r.getKey());
                if (limit == null || limit.compareTo(r.getValue()) != 0) {
                    guaranteed = false;
                    break;
                }
            }
        }
        return guaranteed && requests.size() == limits.size() ? "Guaranteed" : "Burstable";
    }

    /** Adds the positive CPU and memory quantities of {@code list} to {@code sums}; answers the names added. */
    private static Set<String> add(JsonNode list, Map<String, BigDecimal> sums) {
        Set<String> found = new java.util.HashSet<>();
        for (String name : COMPUTE) {
            BigDecimal q = Quantities.parse(list.get(name));
            if (q != null && q.signum() > 0) {
                found.add(name);
                sums.merge(name, q, BigDecimal::add);
            }
        }
        return found;
    }
}
