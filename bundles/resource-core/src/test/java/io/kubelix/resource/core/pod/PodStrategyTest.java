package io.kubelix.resource.core.pod;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.registry.DeleteOptions;
import io.kubelix.api.request.RequestContext;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.kubelix.resource.core.testing.Json.obj;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a created pod looks like (kube's defaults), its status kept on update, graceful deletion. */
class PodStrategyTest {
    private static final RequestContext CTX = RequestContext.system("default");
    /** What {@code kubectl run nginx --image=nginx} sends. */
    private static final String KUBECTL_RUN = "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'nginx','labels':{'run':'nginx'}},"
            + "'spec':{'containers':[{'name':'nginx','image':'nginx','resources':{}}],'dnsPolicy':'ClusterFirst',"
            + "'restartPolicy':'Always'},'status':{}}";

    private final PodStrategy strategy = new PodStrategy();

    private ObjectNode created(String json) {
        ObjectNode pod = obj(json);
        strategy.prepareForCreate(CTX, pod);
        return pod;
    }

    @Test
    void kubectlRunGetsKubesDefaults() {
        ObjectNode pod = created(KUBECTL_RUN);
        JsonNode spec = pod.path("spec");
        assertEquals("Always", spec.path("restartPolicy").asText());
        assertEquals("ClusterFirst", spec.path("dnsPolicy").asText());
        assertEquals(30, spec.path("terminationGracePeriodSeconds").asInt());
        assertEquals("default-scheduler", spec.path("schedulerName").asText());
        assertTrue(spec.path("securityContext").isObject() && spec.path("securityContext").isEmpty());
        assertTrue(spec.path("enableServiceLinks").asBoolean());
        assertTrue(spec.path("priority").isMissingNode(), "priority is the Priority admission plugin's");
        assertTrue(spec.path("tolerations").isMissingNode(), "default tolerations are DefaultTolerationSeconds'");
        JsonNode c = spec.path("containers").get(0);
        assertEquals("Always", c.path("imagePullPolicy").asText(), "no tag is :latest");
        assertEquals("/dev/termination-log", c.path("terminationMessagePath").asText());
        assertEquals("File", c.path("terminationMessagePolicy").asText());
        assertEquals("Pending", pod.path("status").path("phase").asText());
        assertEquals("BestEffort", pod.path("status").path("qosClass").asText());
        assertTrue(strategy.validate(CTX, pod).isEmpty(), String.valueOf(strategy.validate(CTX, pod)));
    }

    @Test
    void imagePullPolicyFollowsTheTag() {
        ObjectNode pod = created("{'spec':{'containers':[{'name':'a','image':'nginx:1.25'},{'name':'b','image':'nginx:latest'},"
                + "{'name':'c','image':'registry:5000/app'},{'name':'d','image':'app@sha256:abc'},"
                + "{'name':'e','image':'app','imagePullPolicy':'Never'}]}}");
        List<String> policies = new ArrayList<>();
        pod.path("spec").path("containers").forEach(c -> policies.add(c.path("imagePullPolicy").asText()));
        assertEquals(List.of("IfNotPresent", "Always", "Always", "IfNotPresent", "Never"), policies);
    }

    @Test
    void qosClassFromRequestsAndLimits() {
        ObjectNode guaranteed = created("{'spec':{'containers':[{'name':'a','image':'a','resources':{'limits':{'cpu':'500m',"
                + "'memory':'128Mi'}}}]}}");
        assertEquals("Guaranteed", guaranteed.path("status").path("qosClass").asText());
        assertEquals("500m", guaranteed.path("spec").path("containers").get(0).path("resources").path("requests").path("cpu")
                .asText(), "requests default to limits");
        ObjectNode equalInOtherUnits = created("{'spec':{'containers':[{'name':'a','image':'a','resources':{"
                + "'limits':{'cpu':'1','memory':'1Gi'},'requests':{'cpu':'1000m','memory':'1073741824'}}}]}}");
        assertEquals("Guaranteed", equalInOtherUnits.path("status").path("qosClass").asText());
        ObjectNode burstable = created("{'spec':{'containers':[{'name':'a','image':'a','resources':{'requests':{'cpu':'100m'}}},"
                + "{'name':'b','image':'b'}]}}");
        assertEquals("Burstable", burstable.path("status").path("qosClass").asText());
        ObjectNode onlyCpuLimit = created("{'spec':{'containers':[{'name':'a','image':'a','resources':{'limits':{'cpu':'1'}}}]}}");
        assertEquals("Burstable", onlyCpuLimit.path("status").path("qosClass").asText());
    }

    @Test
    void hostNetworkPortsAndServiceAccountMirror() {
        ObjectNode pod = created("{'spec':{'hostNetwork':true,'serviceAccount':'builder','containers':[{'name':'a','image':'a',"
                + "'ports':[{'containerPort':8080}]}]}}");
        JsonNode port = pod.path("spec").path("containers").get(0).path("ports").get(0);
        assertEquals(8080, port.path("hostPort").asInt());
        assertEquals("TCP", port.path("protocol").asText());
        assertEquals("builder", pod.path("spec").path("serviceAccountName").asText());
    }

    @Test
    void schedulingGatesGiveTheSchedulingGatedCondition() {
        ObjectNode pod = created("{'spec':{'schedulingGates':[{'name':'wait'}],'containers':[{'name':'a','image':'a'}]}}");
        JsonNode c = pod.path("status").path("conditions").get(0);
        assertEquals("PodScheduled", c.path("type").asText());
        assertEquals("False", c.path("status").asText());
        assertEquals("SchedulingGated", c.path("reason").asText());
    }

    @Test
    void theClientsStatusIsDroppedOnCreateAndTheStoredOneKeptOnUpdate() {
        ObjectNode pod = created("{'spec':{'containers':[{'name':'a','image':'a'}]},'status':{'phase':'Running','podIP':'1.2.3.4'}}");
        assertEquals("Pending", pod.path("status").path("phase").asText());
        assertFalse(pod.path("status").has("podIP"));

        ObjectNode old = obj("{'spec':{'containers':[{'name':'a','image':'a'}]},'status':{'phase':'Running'}}");
        ObjectNode update = obj("{'spec':{'containers':[{'name':'a','image':'b'}]},'status':{'phase':'Failed'}}");
        strategy.prepareForUpdate(CTX, update, old);
        assertEquals("Running", update.path("status").path("phase").asText());
    }

    @Test
    void onlyABoundUnfinishedPodIsDeletedGracefully() {
        DeleteOptions none = DeleteOptions.DEFAULT;
        ObjectNode unbound = created(KUBECTL_RUN);
        assertEquals(0L, strategy.checkGracefulDelete(CTX, unbound, none), "an unbound pod goes at once");

        ObjectNode bound = created(KUBECTL_RUN);
        ((ObjectNode) bound.path("spec")).put("nodeName", "node-1");
        assertEquals(30L, strategy.checkGracefulDelete(CTX, bound, none), "its terminationGracePeriodSeconds");
        assertEquals(5L, strategy.checkGracefulDelete(CTX, bound, withGrace(5L)));
        assertEquals(0L, strategy.checkGracefulDelete(CTX, bound, withGrace(0L)));
        assertEquals(1L, strategy.checkGracefulDelete(CTX, bound, withGrace(-3L)), "negative is one second");

        ((ObjectNode) bound.path("status")).put("phase", "Succeeded");
        assertEquals(0L, strategy.checkGracefulDelete(CTX, bound, none), "a finished pod goes at once");
    }

    private static DeleteOptions withGrace(Long seconds) {
        return new DeleteOptions(false, seconds, null, null);
    }
}
