package io.kubelix.runtime.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Strategic merge patch under a schema shaped as kube publishes it: a pod-like kind whose
 * containers merge on name, their ports on containerPort, finalizers as a set, and args replaced.
 */
class StrategicMergePatchTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String REF = "#/components/schemas/";

    private static final Map<String, ObjectNode> DEFINITIONS = Map.of(
            "Pod", obj("{'type':'object','properties':{"
                    + "'metadata':{'allOf':[{'$ref':'" + REF + "ObjectMeta'}]},"
                    + "'spec':{'allOf':[{'$ref':'" + REF + "PodSpec'}]}}}"),
            "ObjectMeta", obj("{'type':'object','properties':{"
                    + "'finalizers':{'type':'array','items':{'type':'string'},'x-kubernetes-patch-strategy':'merge'},"
                    + "'labels':{'type':'object','additionalProperties':{'type':'string'}}}}"),
            "PodSpec", obj("{'type':'object','properties':{"
                    + "'containers':{'type':'array','items':{'allOf':[{'$ref':'" + REF + "Container'}]},"
                    + "'x-kubernetes-patch-merge-key':'name','x-kubernetes-patch-strategy':'merge'}}}"),
            "Container", obj("{'type':'object','properties':{'name':{'type':'string'},'image':{'type':'string'},"
                    + "'args':{'type':'array','items':{'type':'string'}},"
                    + "'ports':{'type':'array','items':{'allOf':[{'$ref':'" + REF + "ContainerPort'}]},"
                    + "'x-kubernetes-patch-merge-key':'containerPort','x-kubernetes-patch-strategy':'merge'}}}"),
            "ContainerPort", obj("{'type':'object','properties':{'containerPort':{'type':'integer'},"
                    + "'name':{'type':'string'}}}"));

    private static final String POD = "{'metadata':{'name':'p','finalizers':['a/one']},'spec':{'containers':["
            + "{'name':'web','image':'nginx:1','args':['-x'],'ports':[{'containerPort':80,'name':'http'}]},"
            + "{'name':'sidecar','image':'envoy:1'}]}}";

    private static JsonNode patch(String original, String patch) {
        return StrategicMergePatch.apply(obj(original), obj(patch), DEFINITIONS.get("Pod"),
                s -> {
                    JsonNode ref = s.has("$ref") ? s.get("$ref") : s.path("allOf").path(0).get("$ref");
                    return ref == null ? null : DEFINITIONS.get(ref.asText().substring(REF.length()));
                });
    }

    @Test
    void containersMergeOnTheirNameAndKeepTheOthers() {
        JsonNode r = patch(POD, "{'spec':{'containers':[{'name':'web','image':'nginx:2'}]}}");
        assertEquals(obj("{'metadata':{'name':'p','finalizers':['a/one']},'spec':{'containers':["
                + "{'name':'web','image':'nginx:2','args':['-x'],'ports':[{'containerPort':80,'name':'http'}]},"
                + "{'name':'sidecar','image':'envoy:1'}]}}"), r);
    }

    @Test
    void aNewContainerIsAppendedAndNestedListsMergeOnTheirOwnKey() {
        JsonNode r = patch(POD, "{'spec':{'containers':[{'name':'web','ports':[{'containerPort':443,'name':'https'}]},"
                + "{'name':'log','image':'fluentd'}]}}");
        assertEquals(json("[{'containerPort':80,'name':'http'},{'containerPort':443,'name':'https'}]"),
                r.path("spec").path("containers").path(0).path("ports"));
        assertEquals("log", r.path("spec").path("containers").path(2).path("name").asText());
    }

    @Test
    void listsWithoutAStrategyAreReplaced() {
        JsonNode r = patch(POD, "{'spec':{'containers':[{'name':'web','args':['-y']}]}}");
        assertEquals(json("['-y']"), r.path("spec").path("containers").path(0).path("args"));
    }

    @Test
    void aDeleteDirectiveRemovesTheElementWithThatKey() {
        JsonNode r = patch(POD, "{'spec':{'containers':[{'name':'sidecar','$patch':'delete'}]}}");
        assertEquals(1, r.path("spec").path("containers").size());
        assertEquals("web", r.path("spec").path("containers").path(0).path("name").asText());
    }

    @Test
    void aReplaceDirectiveElementReplacesTheWholeList() {
        JsonNode r = patch(POD, "{'spec':{'containers':[{'name':'only','image':'busybox'},{'$patch':'replace'}]}}");
        assertEquals(json("[{'name':'only','image':'busybox'}]"), r.path("spec").path("containers"));
    }

    @Test
    void primitiveMergeListsAreSetsAndDeleteFromPrimitiveListRemoves() {
        JsonNode added = patch(POD, "{'metadata':{'finalizers':['a/one','b/two']}}");
        assertEquals(json("['a/one','b/two']"), added.path("metadata").path("finalizers"));
        JsonNode removed = patch(POD, "{'metadata':{'$deleteFromPrimitiveList/finalizers':['a/one']}}");
        assertEquals(json("[]"), removed.path("metadata").path("finalizers"));
    }

    @Test
    void setElementOrderOrdersTheMergedList() {
        JsonNode r = patch(POD, "{'spec':{'$setElementOrder/containers':[{'name':'sidecar'},{'name':'web'}],"
                + "'containers':[{'name':'web','image':'nginx:3'}]}}");
        assertEquals("sidecar", r.path("spec").path("containers").path(0).path("name").asText());
        assertEquals("nginx:3", r.path("spec").path("containers").path(1).path("image").asText());
    }

    @Test
    void directivesAreNeverStored() {
        JsonNode r = patch("{'metadata':{'name':'p'}}", "{'spec':{'containers':[{'name':'a','image':'x'},"
                + "{'name':'b','$patch':'delete'}]}}");
        assertEquals(obj("{'metadata':{'name':'p'},'spec':{'containers':[{'name':'a','image':'x'}]}}"), r);
    }

    @Test
    void aMapElementWithoutItsMergeKeyIsABadRequest() {
        StatusException e = assertThrows(StatusException.class,
                () -> patch(POD, "{'spec':{'containers':[{'image':'nameless'}]}}"));
        assertEquals(400, e.code());
    }

    private static ObjectNode obj(String s) {
        return (ObjectNode) json(s);
    }

    private static JsonNode json(String s) {
        try {
            return JSON.readTree(s.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(s, e);
        }
    }
}
