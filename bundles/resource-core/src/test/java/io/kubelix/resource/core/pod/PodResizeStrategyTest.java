package io.kubelix.resource.core.pod;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.request.RequestContext;
import io.kubelix.resource.core.testing.Json;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** pods/resize: only containers' resources are taken, and kube's ValidatePodResize. */
class PodResizeStrategyTest {
    private static final RequestContext CTX = RequestContext.system("team");
    private final PodResizeStrategy strategy = new PodResizeStrategy();

    /** A pod as stored: defaulted. */
    private static ObjectNode pod(String resources) {
        ObjectNode pod = Json.obj("{'metadata':{'name':'p','namespace':'team','resourceVersion':'5','labels':{'a':'b'}},"
                + "'spec':{'containers':[{'name':'c','image':'nginx','resources':" + resources + "}]},"
                + "'status':{'phase':'Running','qosClass':'Burstable'}}");
        PodDefaults.setPodSpecDefaults(pod.with("spec"));
        return pod;
    }

    private List<String> resize(ObjectNode sent, ObjectNode old) {
        strategy.prepareForUpdate(CTX, sent, old);
        return strategy.validateUpdate(CTX, sent, old).stream().map(FieldError::message).toList();
    }

    @Test
    void onlyTheContainersResourcesAreTakenFromTheRequest() {
        ObjectNode old = pod("{'requests':{'cpu':'100m'},'limits':{'cpu':'200m'}}");
        ObjectNode sent = Json.obj("{'metadata':{'name':'p','namespace':'team','resourceVersion':'5','labels':{'x':'y'}},"
                + "'spec':{'containers':[{'name':'c','image':'busybox','resources':{'requests':{'cpu':'150m'},"
                + "'limits':{'cpu':'300m'}}}]}}");

        assertEquals(List.of(), resize(sent, old));
        assertEquals("{\"a\":\"b\"}", sent.path("metadata").path("labels").toString());
        assertEquals("nginx", sent.path("spec").path("containers").get(0).path("image").asText());
        assertEquals("{\"requests\":{\"cpu\":\"150m\"},\"limits\":{\"cpu\":\"300m\"}}",
                sent.path("spec").path("containers").get(0).path("resources").toString());
        assertEquals("Running", sent.path("status").path("phase").asText());
    }

    @Test
    void aResizeThatChangesTheQosClassIsRefused() {
        ObjectNode old = pod("{'requests':{'cpu':'100m'},'limits':{'cpu':'200m'}}");
        ObjectNode sent = pod("{'requests':{'cpu':'100m','memory':'1Gi'},'limits':{'cpu':'100m','memory':'1Gi'}}");

        assertEquals(List.of("spec: Invalid value: \"Burstable\": Pod QOS Class may not change as a result of resizing"),
                resize(sent, old));
    }

    @Test
    void limitsMayNotBeRemovedNorOtherResourcesChanged() {
        ObjectNode old = pod("{'requests':{'cpu':'100m','ephemeral-storage':'1Gi'},'limits':{'cpu':'200m'}}");

        assertEquals(List.of("spec.containers[0].resources.limits: Forbidden: resource limits cannot be removed"),
                resize(pod("{'requests':{'cpu':'100m','ephemeral-storage':'1Gi'}}"), old));
        assertEquals(List.of("spec: Forbidden: only cpu and memory resources are mutable"),
                resize(pod("{'requests':{'cpu':'100m','ephemeral-storage':'2Gi'},'limits':{'cpu':'200m'}}"), old));
    }

    @Test
    void staticPodsAndPodsOnNodesThatCannotResizeAreRefused() {
        ObjectNode old = pod("{'requests':{'cpu':'100m'},'limits':{'cpu':'200m'}}");
        old.with("metadata").with("annotations").put("kubernetes.io/config.mirror", "x");
        assertEquals(List.of(": Forbidden: static pods cannot be resized"),
                resize(pod("{'requests':{'cpu':'150m'},'limits':{'cpu':'200m'}}"), old));

        ObjectNode running = pod("{'requests':{'cpu':'100m'},'limits':{'cpu':'200m'}}");
        running.with("status").putArray("containerStatuses").addObject().put("name", "c").putObject("state")
                .putObject("running");
        assertEquals(List.of("spec: Forbidden: Pod running on node without support for resize"),
                resize(pod("{'requests':{'cpu':'150m'},'limits':{'cpu':'200m'}}"), running));
    }
}
