package io.kubelix.resource.core.node;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.Operation;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupVersionKind;
import io.kubelix.api.schema.GroupVersionResource;
import org.junit.jupiter.api.Test;

import static io.kubelix.resource.core.testing.Json.obj;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** kube's TaintNodesByCondition: a new node is tainted not-ready, once. */
class TaintNodesByConditionTest {
    private static ObjectNode created(String json) {
        ObjectNode node = obj(json);
        new TaintNodesByCondition().admit(new AdmissionAttributes(Operation.CREATE, new GroupVersionKind("", "v1", "Node"),
                new GroupVersionResource("", "v1", "nodes"), "", "", "n1", node, null, false, RequestContext.system("")));
        return node;
    }

    @Test
    void aNewNodeIsTaintedNotReadyUnlessItIsAlready() {
        assertEquals("[{\"key\":\"node.kubernetes.io/not-ready\",\"effect\":\"NoSchedule\"}]",
                created("{'metadata':{'name':'n1'}}").path("spec").path("taints").toString());
        assertEquals("[{\"key\":\"gpu\",\"effect\":\"NoSchedule\"},{\"key\":\"node.kubernetes.io/not-ready\",\"effect\":"
                + "\"NoSchedule\"}]", created("{'spec':{'taints':[{'key':'gpu','effect':'NoSchedule'}]}}").path("spec")
                .path("taints").toString());
        assertEquals(1, created("{'spec':{'taints':[{'key':'node.kubernetes.io/not-ready','effect':'NoSchedule',"
                + "'value':'x'}]}}").path("spec").path("taints").size());
    }
}
