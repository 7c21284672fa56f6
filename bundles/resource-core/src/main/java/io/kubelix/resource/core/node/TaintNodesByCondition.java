package io.kubelix.resource.core.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.MutatingAdmissionPlugin;
import io.kubelix.api.admission.Operation;
import io.kubelix.support.admission.guard.ObjectWrites;
import org.osgi.service.component.annotations.Component;

/**
 * kube's TaintNodesByCondition admission plugin (plugin/pkg/admission/nodetaint): a new node gets
 * the {@code node.kubernetes.io/not-ready:NoSchedule} taint unless it has it, so nothing is
 * scheduled to it before it is known to be ready. In kube the node lifecycle controller removes
 * it once the node is {@code Ready}; there is no such controller here, so whoever runs the node
 * removes it.
 */
@Component(service = MutatingAdmissionPlugin.class)
public final class TaintNodesByCondition implements MutatingAdmissionPlugin {
    static final String PLUGIN_NAME = "TaintNodesByCondition";
    static final String NOT_READY = "node.kubernetes.io/not-ready";

    @Override
    public String name() {
        return PLUGIN_NAME;
    }

    @Override
    public boolean handles(Operation operation) {
        return operation == Operation.CREATE;
    }

    @Override
    public void admit(AdmissionAttributes a) {
        if (!ObjectWrites.of(a, "", "nodes")) {
            return;
        }
        ObjectNode spec = a.object().with("spec");
        JsonNode taints = spec.get("taints");
        if (taints != null && !taints.isNull() && !taints.isArray()) {
            return;
        }
        // kube's MatchTaint: the same key and effect.
        for (JsonNode t : taints == null || taints.isNull() ? spec.arrayNode() : taints) {
            if (NOT_READY.equals(t.path("key").asText()) && "NoSchedule".equals(t.path("effect").asText())) {
                return;
            }
        }
        ArrayNode list = taints instanceof ArrayNode existing ? existing : spec.putArray("taints");
        list.addObject().put("key", NOT_READY).put("effect", "NoSchedule");
    }
}
