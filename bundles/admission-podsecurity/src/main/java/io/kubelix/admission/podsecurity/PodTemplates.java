package io.kubelix.admission.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.api.schema.GroupResource;

import java.util.Map;

/**
 * Where the pod is in the objects PodSecurity checks (kube's {@code DefaultPodSpecExtractor}), and
 * which pod updates are worth checking again (kube's {@code isSignificantPodUpdate}).
 */
final class PodTemplates {
    /** The workloads with a pod template, and the path of that template in each. */
    private static final Map<GroupResource, String[]> TEMPLATES = Map.of(
            new GroupResource("", "podtemplates"), new String[]{"template"},
            new GroupResource("", "replicationcontrollers"), new String[]{"spec", "template"},
            new GroupResource("apps", "replicasets"), new String[]{"spec", "template"},
            new GroupResource("apps", "deployments"), new String[]{"spec", "template"},
            new GroupResource("apps", "statefulsets"), new String[]{"spec", "template"},
            new GroupResource("apps", "daemonsets"), new String[]{"spec", "template"},
            new GroupResource("batch", "jobs"), new String[]{"spec", "template"},
            new GroupResource("batch", "cronjobs"), new String[]{"spec", "jobTemplate", "spec", "template"});

    private PodTemplates() {
    }

    static boolean has(GroupResource gr) {
        return TEMPLATES.containsKey(gr);
    }

    /** The object's pod template ({@code metadata} and {@code spec}), or null when it has none. */
    static JsonNode template(GroupResource gr, JsonNode object) {
        JsonNode node = object;
        for (String field : TEMPLATES.get(gr)) {
            node = node.path(field);
        }
        return node.isObject() ? node : null;
    }

    /**
     * Whether an update of a pod can change what the checks decide: containers or init containers
     * added, removed or given another image, or an ephemeral container added or changed. Other
     * updates (labels, annotations, tolerations, ...) are not checked, as kube does not.
     */
    static boolean significantUpdate(JsonNode spec, JsonNode oldSpec) {
        for (String field : new String[]{"containers", "initContainers"}) {
            JsonNode now = spec.path(field);
            JsonNode before = oldSpec.path(field);
            if (now.size() != before.size()) {
                return true;
            }
            for (int i = 0; i < now.size(); i++) {
                if (!image(now.get(i)).equals(image(before.get(i)))) {
                    return true;
                }
            }
        }
        for (JsonNode c : spec.path("ephemeralContainers")) {
            JsonNode old = null;
            for (JsonNode o : oldSpec.path("ephemeralContainers")) {
                if (o.path("name").asText().equals(c.path("name").asText())) {
                    old = o;
                    break;
                }
            }
            if (old == null || !image(c).equals(image(old))) {
                return true;
            }
        }
        return false;
    }

    private static String image(JsonNode container) {
        return container.path("image").asText("");
    }
}
