package io.kubelix.resource.core.quota;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.Operation;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupVersionKind;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.resource.core.testing.Json;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** LimitRanger's defaults on a new pod, from the LimitRanges of its namespace. */
class LimitRangerTest {
    private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");

    private static AdmissionAttributes create(ObjectNode pod) {
        return new AdmissionAttributes(Operation.CREATE, new GroupVersionKind("", "v1", "Pod"), PODS, "", "team",
                "web", pod, null, false, RequestContext.system("team"));
    }

    @Test
    void containersGetTheDefaultsTheyDoNotSetAndThePodKubesNote() {
        ObjectNode range = Json.obj("{'metadata':{'name':'limits'},'spec':{'limits':[{'type':'Container',"
                + "'default':{'cpu':'500m','memory':'256Mi'},'defaultRequest':{'cpu':'100m'}},"
                + "{'type':'Pod','max':{'cpu':'2'}}]}}");
        ObjectNode pod = Json.obj("{'metadata':{'name':'web'},'spec':{'containers':[{'name':'app','image':'nginx',"
                + "'resources':{'limits':{'memory':'1Gi'}}}],'initContainers':[{'name':'setup','image':'busybox'}]}}");

        new LimitRanger(ns -> List.of(range)).admit(create(pod));

        assertEquals("{\"limits\":{\"memory\":\"1Gi\",\"cpu\":\"500m\"},\"requests\":{\"cpu\":\"100m\",\"memory\":\"256Mi\"}}",
                pod.path("spec").path("containers").path(0).path("resources").toString());
        assertEquals("{\"requests\":{\"cpu\":\"100m\",\"memory\":\"256Mi\"},\"limits\":{\"cpu\":\"500m\",\"memory\":\"256Mi\"}}",
                pod.path("spec").path("initContainers").path(0).path("resources").toString());
        assertEquals("LimitRanger plugin set: cpu, memory request for container app; cpu limit for container app; "
                + "cpu, memory request for init container setup; cpu, memory limit for init container setup",
                pod.path("metadata").path("annotations").path(LimitRanger.ANNOTATION).asText());
    }

    @Test
    void aMaxOrMinDefaultsTheLimitAndRequestAsKubeDefaultsALimitRange() {
        ObjectNode range = Json.obj("{'spec':{'limits':[{'type':'Container','max':{'cpu':'1'},'min':{'memory':'64Mi'}}]}}");
        ObjectNode pod = Json.obj("{'spec':{'containers':[{'name':'app'}]}}");

        new LimitRanger(ns -> List.of(range)).admit(create(pod));

        assertEquals("{\"requests\":{\"cpu\":\"1\",\"memory\":\"64Mi\"},\"limits\":{\"cpu\":\"1\"}}",
                pod.path("spec").path("containers").path(0).path("resources").toString());
    }

    @Test
    void withoutLimitRangesNothingChanges() {
        ObjectNode pod = Json.obj("{'spec':{'containers':[{'name':'app'}]}}");

        new LimitRanger(ns -> List.of()).admit(create(pod));

        assertFalse(pod.path("spec").path("containers").path(0).has("resources"));
        assertFalse(pod.path("metadata").has("annotations"));
    }
}
