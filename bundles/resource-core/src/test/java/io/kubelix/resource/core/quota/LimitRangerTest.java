package io.kubelix.resource.core.quota;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.Operation;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupVersionKind;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.resource.core.testing.Json;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** LimitRanger's defaults on a new pod and its checks of pods and claims, from the LimitRanges of their namespace. */
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

    private static String refusal(ObjectNode range, GroupVersionResource gvr, String kind, ObjectNode obj) {
        AdmissionAttributes a = new AdmissionAttributes(Operation.CREATE, new GroupVersionKind("", "v1", kind), gvr, "",
                "team", "web", obj, null, false, RequestContext.system("team"));
        StatusException e = assertThrows(StatusException.class, () -> new LimitRanger(ns -> List.of(range)).validate(a));
        assertEquals(403, e.code());
        return e.getMessage();
    }

    @Test
    void containersAndPodsPastMinMaxOrRatioAreRefusedInKubesWords() {
        ObjectNode range = Json.obj("{'spec':{'limits':[{'type':'Container','max':{'cpu':'1'},'min':{'memory':'64Mi'},"
                + "'maxLimitRequestRatio':{'cpu':'2'}},{'type':'Pod','max':{'memory':'1Gi'}}]}}");

        assertEquals("pods \"web\" is forbidden: maximum cpu usage per Container is 1, but limit is 2", refusal(range, PODS,
                "Pod", Json.obj("{'spec':{'containers':[{'name':'app','resources':{'limits':{'cpu':'2','memory':'128Mi'},"
                        + "'requests':{'cpu':'1','memory':'128Mi'}}}]}}")));
        assertEquals("pods \"web\" is forbidden: [minimum memory usage per Container is 64Mi, but request is 32Mi, "
                + "cpu max limit to request ratio per Container is 2, but provided ratio is 4.000000, "
                + "maximum memory usage per Pod is 1Gi, but limit is 1536Mi]", refusal(range, PODS, "Pod", Json.obj(
                "{'spec':{'containers':[{'name':'a','resources':{'limits':{'cpu':'400m','memory':'512Mi'},"
                        + "'requests':{'cpu':'100m','memory':'32Mi'}}},{'name':'b','resources':{'limits':{'cpu':'1',"
                        + "'memory':'1Gi'},'requests':{'cpu':'1','memory':'1Gi'}}}]}}")));
        assertEquals("pods \"web\" is forbidden: [minimum memory usage per Container is 64Mi.  No request is specified, "
                + "maximum cpu usage per Container is 1.  No limit is specified, cpu max limit to request ratio "
                + "per Container is 2, but no request is specified or request is 0, maximum memory usage per Pod is 1Gi.  "
                + "No limit is specified]", refusal(range, PODS, "Pod", Json.obj("{'spec':{'containers':[{'name':'a'}]}}")));

        ObjectNode fits = Json.obj("{'spec':{'containers':[{'name':'a','resources':{'limits':{'cpu':'1','memory':'1Gi'},"
                + "'requests':{'cpu':'500m','memory':'64Mi'}}}]}}");
        new LimitRanger(ns -> List.of(range)).validate(create(fits));
    }

    @Test
    void aResizeIsDefaultedAndCheckedAsACreateButNoOtherPodUpdateOrSubresource() {
        ObjectNode range = Json.obj("{'spec':{'limits':[{'type':'Container','max':{'cpu':'1'},"
                + "'defaultRequest':{'memory':'64Mi'}}]}}");
        LimitRanger ranger = new LimitRanger(ns -> List.of(range));
        ObjectNode old = Json.obj("{'metadata':{'name':'web'},'spec':{'containers':[{'name':'app',"
                + "'resources':{'requests':{'cpu':'500m','memory':'64Mi'},'limits':{'cpu':'1'}}}]}}");
        ObjectNode resized = Json.obj("{'metadata':{'name':'web'},'spec':{'containers':[{'name':'app',"
                + "'resources':{'requests':{'cpu':'2'},'limits':{'cpu':'2'}}}]}}");
        AdmissionAttributes resize = new AdmissionAttributes(Operation.UPDATE, new GroupVersionKind("", "v1", "Pod"), PODS,
                "resize", "team", "web", resized, old, false, RequestContext.system("team"));

        ranger.admit(resize);
        assertEquals("{\"requests\":{\"cpu\":\"2\",\"memory\":\"64Mi\"},\"limits\":{\"cpu\":\"2\"}}",
                resized.path("spec").path("containers").path(0).path("resources").toString());
        StatusException e = assertThrows(StatusException.class, () -> ranger.validate(resize));
        assertEquals("pods \"web\" is forbidden: maximum cpu usage per Container is 1, but limit is 2", e.getMessage());

        for (String subresource : new String[] {"", "status"}) {
            ObjectNode pod = resized.deepCopy();
            AdmissionAttributes other = new AdmissionAttributes(Operation.UPDATE, new GroupVersionKind("", "v1", "Pod"),
                    PODS, subresource, "team", "web", pod, old, false, RequestContext.system("team"));
            ranger.admit(other);
            ranger.validate(other);
            assertEquals(resized, pod, "a pod update through '" + subresource + "' is not LimitRanger's");
        }
    }

    @Test
    void claimsPastTheirStorageBoundsAreRefused() {
        ObjectNode range = Json.obj("{'spec':{'limits':[{'type':'PersistentVolumeClaim','max':{'storage':'2Gi'},"
                + "'min':{'storage':'1Gi'}}]}}");
        GroupVersionResource claims = new GroupVersionResource("", "v1", "persistentvolumeclaims");

        assertEquals("persistentvolumeclaims \"web\" is forbidden: maximum storage usage per PersistentVolumeClaim is 2Gi, "
                + "but request is 5Gi", refusal(range, claims, "PersistentVolumeClaim",
                Json.obj("{'spec':{'resources':{'requests':{'storage':'5Gi'}}}}")));
        assertEquals("persistentvolumeclaims \"web\" is forbidden: minimum storage usage per PersistentVolumeClaim is 1Gi, "
                + "but request is 500Mi", refusal(range, claims, "PersistentVolumeClaim",
                Json.obj("{'spec':{'resources':{'requests':{'storage':'500Mi'}}}}")));
    }
}
