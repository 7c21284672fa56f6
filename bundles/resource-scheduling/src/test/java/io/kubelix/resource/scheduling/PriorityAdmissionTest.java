package io.kubelix.resource.scheduling;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.Operation;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupVersionKind;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.testing.informer.FakeInformer;
import org.junit.jupiter.api.Test;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** kube's Priority admission plugin on pods, over priority classes the test holds. */
class PriorityAdmissionTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");

    private final FakeInformer classes = new FakeInformer(new GroupVersionResource("scheduling.k8s.io", "v1", "priorityclasses"));
    private final PriorityAdmission plugin = new PriorityAdmission(classes::lister);

    private static ObjectNode json(String text) {
        try {
            return (ObjectNode) MAPPER.readTree(text.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    private void priorityClass(String name, long value, boolean globalDefault, String policy) {
        classes.put(json("{'metadata':{'name':'" + name + "'},'value':" + value + ",'globalDefault':" + globalDefault
                + ",'preemptionPolicy':'" + policy + "'}"));
    }

    private ObjectNode create(String spec) {
        ObjectNode pod = json("{'metadata':{'name':'p'},'spec':" + spec + "}");
        plugin.admit(new AdmissionAttributes(Operation.CREATE, new GroupVersionKind("", "v1", "Pod"), PODS, "", "team",
                "p", pod, null, false, RequestContext.system("team")));
        return pod;
    }

    @Test
    void aPodGetsItsClassesPriorityAndPolicy() {
        priorityClass("high", 1000, false, "Never");
        ObjectNode spec = (ObjectNode) create("{'priorityClassName':'high'}").path("spec");
        assertEquals(1000, spec.path("priority").asLong());
        assertEquals("Never", spec.path("preemptionPolicy").asText());
    }

    @Test
    void withoutAClassThePodGetsTheGlobalDefaultOrZero() {
        assertEquals("{\"priority\":0,\"preemptionPolicy\":\"PreemptLowerPriority\"}", create("{}").path("spec").toString());

        priorityClass("low", 10, true, "PreemptLowerPriority");
        priorityClass("lower", 5, true, "Never");
        assertEquals("{\"priorityClassName\":\"lower\",\"priority\":5,\"preemptionPolicy\":\"Never\"}",
                create("{}").path("spec").toString(), "the lowest of two defaults, as kube picks");
    }

    @Test
    void aMissingClassOrAnotherPriorityIsKubes403() {
        StatusException missing = assertThrows(StatusException.class, () -> create("{'priorityClassName':'gold'}"));
        assertEquals(403, missing.code());
        assertEquals("pods \"p\" is forbidden: no PriorityClass with name gold was found", missing.getMessage());

        priorityClass("high", 1000, false, "PreemptLowerPriority");
        StatusException other = assertThrows(StatusException.class, () -> create("{'priorityClassName':'high','priority':7}"));
        assertEquals("pods \"p\" is forbidden: the integer value of priority (7) must not be provided in pod spec; priority "
                + "admission controller computed 1000 from the given PriorityClass name", other.getMessage());
        StatusException policy = assertThrows(StatusException.class, () -> create(
                "{'priorityClassName':'high','preemptionPolicy':'Never'}"));
        assertEquals("pods \"p\" is forbidden: the string value of PreemptionPolicy (Never) must not be provided in pod "
                + "spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name",
                policy.getMessage());
        assertEquals(1000, create("{'priorityClassName':'high','priority':1000}").path("spec").path("priority").asLong());
    }

    @Test
    void anUpdateThatLeavesThePriorityOutKeepsIt() {
        ObjectNode old = json("{'spec':{'priority':5,'preemptionPolicy':'Never'}}");
        ObjectNode pod = json("{'metadata':{'name':'p'},'spec':{'containers':[]}}");
        plugin.admit(new AdmissionAttributes(Operation.UPDATE, new GroupVersionKind("", "v1", "Pod"), PODS, "", "team",
                "p", pod, old, false, RequestContext.system("team")));
        assertEquals("{\"containers\":[],\"priority\":5,\"preemptionPolicy\":\"Never\"}", pod.path("spec").toString());
    }

    private void validateClass(Operation operation, String name, long value, boolean globalDefault) {
        GroupVersionResource gvr = new GroupVersionResource("scheduling.k8s.io", "v1", "priorityclasses");
        ObjectNode pc = json("{'metadata':{'name':'" + name + "'},'value':" + value + ",'globalDefault':" + globalDefault + "}");
        plugin.validate(new AdmissionAttributes(operation, new GroupVersionKind("scheduling.k8s.io", "v1", "PriorityClass"),
                gvr, "", "", name, pc, operation == Operation.UPDATE ? classes.getByKey(name) : null, false,
                RequestContext.system("")));
    }

    @Test
    void onlyOneClassMayBeTheGlobalDefault() {
        validateClass(Operation.CREATE, "first", 10, true);
        priorityClass("first", 10, true, "PreemptLowerPriority");
        priorityClass("other", 5, false, "PreemptLowerPriority");

        StatusException refused = assertThrows(StatusException.class, () -> validateClass(Operation.CREATE, "second", 10, true));
        assertEquals(403, refused.code());
        assertEquals("priorityclasses.scheduling.k8s.io \"second\" is forbidden: PriorityClass first is already marked as "
                + "default. Only one default can exist", refused.getMessage());
        assertThrows(StatusException.class, () -> validateClass(Operation.UPDATE, "other", 5, true),
                "another class may not become the default");
        assertThrows(StatusException.class, () -> validateClass(Operation.CREATE, "first", 10, true),
                "on create even a class of the same name counts");

        validateClass(Operation.UPDATE, "first", 10, true);
        validateClass(Operation.CREATE, "third", 1, false);
    }
}
