package io.kubelix.admission.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The warnings kube gives when a namespace's enforce level is made stricter (kube's
 * {@code EvaluatePodsInNamespace}): its existing pods are checked against the new level, one pod of
 * each controller first, at most {@value #MAX_PODS} of them and for at most a second, and the
 * reasons they break it are told with the first pod (by name) of each and how many others share them.
 */
final class NamespacePods {
    static final int MAX_PODS = 3000;
    private static final long TIMEOUT_MILLIS = 1000;

    private final Function<String, List<ObjectNode>> pods;
    private final Evaluator evaluator;
    private final Set<String> exemptRuntimeClasses;

    NamespacePods(Function<String, List<ObjectNode>> pods, Evaluator evaluator, Set<String> exemptRuntimeClasses) {
        this.pods = pods;
        this.evaluator = evaluator;
        this.exemptRuntimeClasses = exemptRuntimeClasses;
    }

    /** A pod breaking the level for one set of reasons: the first of them by name, and how many. */
    private static final class Count {
        String podName;
        int count;
    }

    List<String> warnings(String namespace, LevelVersion enforce) {
        long deadline = System.currentTimeMillis() + TIMEOUT_MILLIS;
        List<ObjectNode> prioritized = prioritize(pods.apply(namespace));
        int total = prioritized.size();
        if (prioritized.size() > MAX_PODS) {
            prioritized = prioritized.subList(0, MAX_PODS);
        }
        int checked = prioritized.size();
        Map<String, Count> byReason = new LinkedHashMap<>();
        for (int i = 0; i < prioritized.size(); i++) {
            ObjectNode pod = prioritized.get(i);
            CheckResult.Aggregate r = evaluator.aggregate(enforce, pod.path("metadata"), pod.path("spec"));
            if (!r.allowed()) {
                String podName = pod.path("metadata").path("name").asText();
                Count c = byReason.computeIfAbsent(r.forbiddenReason(), k -> new Count());
                if (c.podName == null || podName.compareTo(c.podName) < 0) {
                    c.podName = podName;
                }
                c.count++;
            }
            if (System.currentTimeMillis() > deadline) {
                checked = i + 1;
                break;
            }
        }
        List<String> warnings = new ArrayList<>();
        if (checked < total) {
            warnings.add("new PodSecurity enforce level only checked against the first " + checked + " of " + total
                    + " existing pods");
        }
        if (!byReason.isEmpty()) {
            warnings.add("existing pods in namespace \"" + namespace + "\" violate the new PodSecurity enforce level \""
                    + enforce + "\"");
        }
        List<String> podWarnings = new ArrayList<>();
        byReason.forEach((reason, c) -> podWarnings.add(switch (c.count) {
            case 1 -> c.podName + ": " + reason;
            case 2 -> c.podName + " (and 1 other pod): " + reason;
            default -> c.podName + " (and " + (c.count - 1) + " other pods): " + reason;
        }));
        podWarnings.sort(null);
        warnings.addAll(podWarnings);
        return warnings;
    }

    /**
     * Pods without a controller and the first pod of each controller, then the other pods of
     * controllers; pods of exempt runtime classes are left out.
     */
    private List<ObjectNode> prioritize(List<ObjectNode> pods) {
        List<ObjectNode> first = new ArrayList<>();
        List<ObjectNode> duplicates = new ArrayList<>();
        Set<String> controllers = new HashSet<>();
        for (ObjectNode pod : pods) {
            if (exemptRuntimeClasses.contains(pod.path("spec").path("runtimeClassName").asText(""))) {
                continue;
            }
            String controller = controllerUid(pod);
            if (controller == null) {
                first.add(pod);
            } else if (controllers.add(controller)) {
                first.add(pod);
            } else {
                duplicates.add(pod);
            }
        }
        first.addAll(duplicates);
        return first;
    }

    private static String controllerUid(JsonNode pod) {
        for (JsonNode ref : pod.path("metadata").path("ownerReferences")) {
            if (ref.path("controller").asBoolean(false)) {
                return ref.path("uid").asText();
            }
        }
        return null;
    }
}
