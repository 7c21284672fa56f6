package io.kubelix.resource.core.pod;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.Operation;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupVersionKind;
import io.kubelix.api.schema.GroupVersionResource;
import org.junit.jupiter.api.Test;

import static io.kubelix.resource.core.testing.Json.obj;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** kube's DefaultTolerationSeconds: the not-ready and unreachable taints tolerated unless the pod already does. */
class DefaultTolerationSecondsTest {
    private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");

    private static ObjectNode admitted(DefaultTolerationSeconds plugin, String json) {
        ObjectNode pod = obj(json);
        plugin.admit(new AdmissionAttributes(Operation.CREATE, new GroupVersionKind("", "v1", "Pod"), PODS, "",
                "default", "p", pod, null, false, RequestContext.system("default")));
        return pod;
    }

    @Test
    void notReadyAndUnreachableAreToleratedFor300SecondsUnlessAlreadyTolerated() {
        DefaultTolerationSeconds plugin = new DefaultTolerationSeconds(300, 300);
        JsonNode tolerations = admitted(plugin, "{'spec':{'containers':[{'name':'a'}]}}").path("spec").path("tolerations");
        assertEquals("[{\"effect\":\"NoExecute\",\"key\":\"node.kubernetes.io/not-ready\",\"operator\":\"Exists\","
                + "\"tolerationSeconds\":300},{\"effect\":\"NoExecute\",\"key\":\"node.kubernetes.io/unreachable\","
                + "\"operator\":\"Exists\",\"tolerationSeconds\":300}]", tolerations.toString());

        JsonNode t = admitted(plugin, "{'spec':{'containers':[{'name':'a'}],'tolerations':[{'key':"
                + "'node.kubernetes.io/unreachable','operator':'Exists','effect':'NoExecute','tolerationSeconds':10}]}}")
                .path("spec").path("tolerations");
        assertEquals(2, t.size());
        assertEquals(10, t.get(0).path("tolerationSeconds").asInt(), "the pod's own toleration stays");
        assertEquals("node.kubernetes.io/not-ready", t.get(1).path("key").asText());

        assertEquals(1, admitted(plugin, "{'spec':{'tolerations':[{'operator':'Exists'}]}}").path("spec")
                .path("tolerations").size(), "a toleration of every taint tolerates both");
    }

    @Test
    void theFlagsSetTheSeconds() {
        JsonNode t = admitted(new DefaultTolerationSeconds(60, 120), "{'spec':{}}").path("spec").path("tolerations");
        assertEquals(60, t.get(0).path("tolerationSeconds").asInt());
        assertEquals(120, t.get(1).path("tolerationSeconds").asInt());
    }
}
