package io.kubelix.resource.core.pod;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.request.RequestContext;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.kubelix.resource.core.testing.Json.obj;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The pod validation users hit, with kube's field paths and words. */
class PodValidationTest {
    private static final RequestContext CTX = RequestContext.system("default");
    private final PodStrategy strategy = new PodStrategy();

    private List<String> createErrors(String json) {
        ObjectNode pod = obj(json);
        strategy.prepareForCreate(CTX, pod);
        return strategy.validate(CTX, pod).stream().map(FieldError::message).toList();
    }

    /** The errors of an update that changes the created pod {@code oldJson} as {@code change} does, as a client's GET and PUT would. */
    private List<String> updateErrors(String oldJson, java.util.function.Consumer<ObjectNode> change) {
        ObjectNode old = obj(oldJson);
        strategy.prepareForCreate(CTX, old);
        ObjectNode pod = old.deepCopy();
        change.accept(pod);
        strategy.prepareForUpdate(CTX, pod, old);
        return strategy.validateUpdate(CTX, pod, old).stream().map(FieldError::message).toList();
    }

    /** The toleration DefaultTolerationSeconds gives a new pod. */
    private static final String TOLERATED = "'tolerations':[{'key':'node.kubernetes.io/not-ready','operator':'Exists',"
            + "'effect':'NoExecute','tolerationSeconds':300}]";

    private static ObjectNode spec(ObjectNode pod) {
        return (ObjectNode) pod.path("spec");
    }

    private static ObjectNode container(ObjectNode pod, int i) {
        return (ObjectNode) pod.path("spec").path("containers").get(i);
    }

    @Test
    void aPodWithoutContainersIsRefusedAsKubeWordsIt() {
        ObjectNode pod = obj("{'metadata':{'name':'empty'},'spec':{'containers':[]}}");
        strategy.prepareForCreate(CTX, pod);
        List<FieldError> errs = strategy.validate(CTX, pod);
        assertEquals(List.of("spec.containers: Required value"), errs.stream().map(FieldError::message).toList());
        StatusException e = StatusException.invalid("Pod", "", "empty", errs);
        assertEquals(422, e.code());
        assertEquals("Pod \"empty\" is invalid: spec.containers: Required value", e.getMessage());
    }

    @Test
    void containerErrors() {
        assertEquals(List.of("spec.containers[1].name: Duplicate value: \"a\""),
                createErrors("{'spec':{'containers':[{'name':'a','image':'x'},{'name':'a','image':'y'}]}}"));
        assertEquals(List.of("spec.containers[0].image: Required value"),
                createErrors("{'spec':{'containers':[{'name':'a','image':''}]}}"));
        assertEquals(List.of("spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and "
                + "65535, inclusive"), createErrors("{'spec':{'containers':[{'name':'a','image':'x','ports':[{'containerPort':70000}]}]}}"));
        assertEquals(List.of("spec.restartPolicy: Unsupported value: \"Sometimes\": supported values: \"Always\", "
                + "\"OnFailure\", \"Never\""), createErrors("{'spec':{'restartPolicy':'Sometimes','containers':[{'name':'a','image':'x'}]}}"));
    }

    @Test
    void podOnlyRules() {
        assertEquals(List.of("spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive"),
                createErrors("{'spec':{'activeDeadlineSeconds':0,'containers':[{'name':'a','image':'x'}]}}"));
        assertEquals(List.of("spec.containers[0].ports[0].hostPort: Invalid value: 81: must match `containerPort` when "
                + "`hostNetwork` is true"), createErrors("{'spec':{'hostNetwork':true,'containers':[{'name':'a','image':'x',"
                + "'ports':[{'containerPort':80,'hostPort':81}]}]}}"));
        assertTrue(createErrors("{'spec':{'nodeName':'Bad_Node','containers':[{'name':'a','image':'x'}]}}").get(0)
                .startsWith("spec.nodeName: Invalid value: \"Bad_Node\": a lowercase RFC 1123 subdomain"));
        assertEquals(List.of("spec.ephemeralContainers: Forbidden: cannot be set on create"),
                createErrors("{'spec':{'containers':[{'name':'a','image':'x'}],'ephemeralContainers':[{'name':'d','image':'x'}]}}"));
    }

    @Test
    void schedulingGates() {
        assertEquals(List.of("spec.schedulingGates[1]: Duplicate value: \"a\""),
                createErrors("{'spec':{'containers':[{'name':'a','image':'x'}],'schedulingGates':[{'name':'a'},{'name':'a'}]}}"));
        assertTrue(createErrors("{'spec':{'containers':[{'name':'a','image':'x'}],'schedulingGates':[{'name':'no spaces'}]}}")
                .get(0).startsWith("spec.schedulingGates[0]: Invalid value: \"no spaces\""));
    }

    @Test
    void tolerations() {
        String pod = "{'spec':{'containers':[{'name':'a','image':'x'}],'tolerations':[TOLERATION]}}";
        assertEquals(List.of(), createErrors(pod.replace("TOLERATION", "{'key':'gpu','operator':'Equal','value':'yes',"
                + "'effect':'NoSchedule'}")));
        assertEquals(List.of("spec.tolerations[0].effect: Invalid value: \"NoSchedule\": effect must be 'NoExecute' when "
                + "`tolerationSeconds` is set"), createErrors(pod.replace("TOLERATION", "{'key':'gpu','operator':'Exists',"
                + "'effect':'NoSchedule','tolerationSeconds':5}")));
        assertEquals(List.of("spec.tolerations[0].operator: Invalid value: \"Equal\": operator must be Exists when `key` is "
                + "empty, which means \"match all values and all keys\""), createErrors(pod.replace("TOLERATION",
                "{'operator':'Equal'}")));
        assertEquals(List.of("spec.tolerations[0].operator: Unsupported value: \"Maybe\": supported values: \"Equal\", "
                + "\"Exists\""), createErrors(pod.replace("TOLERATION", "{'key':'a','operator':'Maybe'}")));
        assertEquals(List.of("spec.tolerations[0].effect: Unsupported value: \"Never\": supported values: \"NoSchedule\", "
                + "\"PreferNoSchedule\", \"NoExecute\""), createErrors(pod.replace("TOLERATION", "{'key':'a','effect':'Never'}")));
    }

    @Test
    void anUpdateMayChangeImagesDeadlineAndAddTolerations() {
        String old = "{'spec':{'activeDeadlineSeconds':100,'containers':[{'name':'a','image':'nginx:1'}],"
                + TOLERATED + "}}";
        assertEquals(List.of(), updateErrors(old, pod -> {
            container(pod, 0).put("image", "nginx:2");
            spec(pod).put("activeDeadlineSeconds", 50);
            ((com.fasterxml.jackson.databind.node.ArrayNode) spec(pod).path("tolerations")).addObject()
                    .put("key", "extra").put("operator", "Exists");
        }));
    }

    @Test
    void anyOtherSpecChangeIsForbiddenWithKubesMessage() {
        String old = "{'spec':{'containers':[{'name':'a','image':'nginx'}]}}";
        assertEquals(List.of("spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,"
                + "`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing "
                + "tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)"),
                updateErrors(old, pod -> container(pod, 0).putArray("ports").addObject().put("containerPort", 80)));
        assertEquals(List.of("spec.containers: Forbidden: pod updates may not add or remove containers"),
                updateErrors(old, pod -> ((com.fasterxml.jackson.databind.node.ArrayNode) spec(pod).path("containers"))
                        .addObject().put("name", "b").put("image", "b")));
        assertEquals(List.of("spec.activeDeadlineSeconds: Invalid value: 200: must be less than or equal to previous value"),
                updateErrors("{'spec':{'activeDeadlineSeconds':100,'containers':[{'name':'a','image':'nginx'}]}}",
                        pod -> spec(pod).put("activeDeadlineSeconds", 200)));
        String tolerating = "{'spec':{'containers':[{'name':'a','image':'nginx'}]," + TOLERATED + "}}";
        assertEquals(List.of("spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds"),
                updateErrors(tolerating, pod -> spec(pod).putArray("tolerations")));
        assertEquals(List.of(), updateErrors(tolerating, pod -> ((ObjectNode) spec(pod).path("tolerations").get(0))
                .put("tolerationSeconds", 60)), "tolerationSeconds may change");
    }

    @Test
    void aBindingNamesANode() {
        assertEquals(List.of(), PodValidation.validateBinding(obj("{'target':{'kind':'Node','name':'n1'}}")));
        assertEquals(List.of("target.kind: Unsupported value: \"Pod\": supported values: \"Node\", \"<empty>\"",
                "target.name: Required value"), PodValidation.validateBinding(obj("{'target':{'kind':'Pod'}}")).stream()
                .map(FieldError::message).toList());
    }
}
