package io.kubelix.resource.core.pod;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.resource.core.common.Nodes;

import java.util.ArrayList;
import java.util.List;

/**
 * kube's ValidatePodResize (pkg/apis/core/validation): the resized pod is a valid pod; pods with
 * pod-level resources, static pods and Windows pods cannot be resized; the QoS class may not change;
 * a pod whose running container reports no resources runs on a node that cannot resize; requests
 * and limits may not be removed; and only the cpu and memory of containers and sidecars (init
 * containers that always restart) change.
 */
final class PodResizeValidation {
    private static final String MIRROR_POD = "kubernetes.io/config.mirror";

    private PodResizeValidation() {
    }

    static List<FieldError> validateResize(ObjectNode pod, ObjectNode old) {
        List<FieldError> errs = new ArrayList<>(PodValidation.validateSpec(pod.path("spec")));
        if (podLevelResources(old) || podLevelResources(pod)) {
            return List.of(FieldError.forbidden("", "pods with pod-level resources cannot be resized"));
        }
        if (old.path("metadata").path("annotations").has(MIRROR_POD)) {
            return List.of(FieldError.forbidden("", "static pods cannot be resized"));
        }
        if ("windows".equals(old.path("spec").path("os").path("name").asText())) {
            return List.of(FieldError.forbidden("", "windows pods cannot be resized"));
        }
        // kube's GetPodQOS reads the stored class, ComputePodQOS the resized spec.
        String oldQos = Nodes.text(old.path("status"), "qosClass");
        if (oldQos.isEmpty()) {
            oldQos = PodQOS.qosClass(old.path("spec"));
        }
        if (!oldQos.equals(PodQOS.qosClass(pod.path("spec")))) {
            errs.add(FieldError.invalid("spec", Nodes.text(pod.path("status"), "qosClass"),
                    "Pod QOS Class may not change as a result of resizing"));
        }
        if (!resizeSupported(old)) {
            errs.add(FieldError.forbidden("spec", "Pod running on node without support for resize"));
        }
        for (String list : new String[] {"initContainers", "containers"}) {
            JsonNode before = old.path("spec").path(list);
            JsonNode after = pod.path("spec").path(list);
            for (int i = 0; i < before.size() && i < after.size(); i++) {
                if (list.equals("initContainers") && !sidecar(before.get(i))) {
                    continue;
                }
                String path = "spec." + list + "[" + i + "].resources.";
                for (String kind : new String[] {"requests", "limits"}) {
                    if (removed(after.get(i).path("resources").path(kind), before.get(i).path("resources").path(kind))) {
                        errs.add(FieldError.forbidden(path + kind, "resource " + kind + " cannot be removed"));
                    }
                }
            }
        }
        if (!onlyCpuAndMemoryChanged(pod.path("spec"), old.path("spec"))) {
            errs.add(FieldError.forbidden("spec", "only cpu and memory resources are mutable"));
        }
        return errs;
    }

    private static boolean podLevelResources(ObjectNode pod) {
        JsonNode r = pod.path("spec").path("resources");
        return r.path("requests").size() + r.path("limits").size() > 0;
    }

    /** kube's isPodResizeRequestSupported: the first running container reports its resources, or none runs. */
    private static boolean resizeSupported(ObjectNode pod) {
        for (JsonNode c : pod.path("status").path("containerStatuses")) {
            if (c.path("state").hasNonNull("running")) {
                return c.hasNonNull("resources");
            }
        }
        return true;
    }

    private static boolean sidecar(JsonNode initContainer) {
        return "Always".equals(initContainer.path("restartPolicy").asText());
    }

    /** kube's resourcesRemoved: a name of the old list is missing from the new one. */
    private static boolean removed(JsonNode now, JsonNode before) {
        for (var it = before.fieldNames(); it.hasNext(); ) {
            if (!now.has(it.next())) {
                return true;
            }
        }
        return false;
    }

    /**
     * The resized spec with each container's (and sidecar's) cpu and memory and resize policy put back
     * as they were equals the old spec: nothing else changed.
     */
    private static boolean onlyCpuAndMemoryChanged(JsonNode spec, JsonNode oldSpec) {
        ObjectNode restored = spec instanceof ObjectNode s ? s.deepCopy() : null;
        if (restored == null) {
            return true;
        }
        for (String list : new String[] {"containers", "initContainers"}) {
            if (!(restored.get(list) instanceof ArrayNode containers)) {
                continue;
            }
            JsonNode before = oldSpec.path(list);
            for (int i = 0; i < containers.size() && i < before.size(); i++) {
                if (list.equals("initContainers") && !sidecar(before.get(i))) {
                    continue;
                }
                ObjectNode c = (ObjectNode) containers.get(i);
                JsonNode old = before.get(i);
                ObjectNode resources = c.with("resources");
                for (String kind : new String[] {"limits", "requests"}) {
                    restoreCpuAndMemory(resources, kind, old.path("resources").get(kind));
                }
                if (old.has("resizePolicy")) {
                    c.set("resizePolicy", old.get("resizePolicy").deepCopy());
                } else {
                    c.remove("resizePolicy");
                }
            }
        }
        return PodValidation.semantic(restored).equals(PodValidation.semantic(oldSpec));
    }

    /** kube's dropCPUMemoryUpdates: no old list means none; else the new list with the old cpu and memory. */
    private static void restoreCpuAndMemory(ObjectNode resources, String kind, JsonNode old) {
        if (old == null || old.isNull()) {
            resources.remove(kind);
            return;
        }
        ObjectNode list = resources.with(kind);
        for (String r : new String[] {"cpu", "memory"}) {
            if (old.has(r)) {
                list.set(r, old.get(r));
            } else {
                list.remove(r);
            }
        }
    }
}
