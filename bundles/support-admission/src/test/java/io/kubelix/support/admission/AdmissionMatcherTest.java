package io.kubelix.support.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.EquivalentResourceMapper;
import io.kubelix.api.admission.Operation;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupVersionKind;
import io.kubelix.api.schema.GroupVersionResource;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Rules matched as kube matches them, through equivalent resources with {@code matchPolicy: Equivalent}. */
class AdmissionMatcherTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final GroupVersionResource HPA_V1 = new GroupVersionResource("autoscaling", "v1", "horizontalpodautoscalers");
    private static final GroupVersionResource HPA_V2 = new GroupVersionResource("autoscaling", "v2", "horizontalpodautoscalers");
    private static final GroupVersionKind KIND_V1 = new GroupVersionKind("autoscaling", "v1", "HorizontalPodAutoscaler");
    private static final GroupVersionKind KIND_V2 = new GroupVersionKind("autoscaling", "v2", "HorizontalPodAutoscaler");

    /** autoscaling/v1 and v2 share their storage; a v2 without kind stands for a resource whose kind is unknown. */
    private static EquivalentResourceMapper mapper(boolean knowsV2) {
        return new EquivalentResourceMapper() {
            @Override
            public List<GroupVersionResource> equivalentResourcesFor(GroupVersionResource resource, String subresource) {
                return List.of(HPA_V2, HPA_V1);
            }

            @Override
            public GroupVersionKind kindFor(GroupVersionResource resource, String subresource) {
                return resource.equals(HPA_V1) ? KIND_V1 : knowsV2 ? KIND_V2 : null;
            }

            @Override
            public ObjectNode convert(ObjectNode obj, GroupVersionResource from, GroupVersionResource to, String sub) {
                return obj.deepCopy().put("apiVersion", to.group() + "/" + to.version());
            }
        };
    }

    private static final AdmissionMatcher MATCHER = new AdmissionMatcher(ns -> null, mapper(true));

    private static AdmissionAttributes createV1(String name) {
        ObjectNode hpa = JSON.createObjectNode().put("apiVersion", "autoscaling/v1").put("kind", "HorizontalPodAutoscaler");
        hpa.putObject("metadata").put("name", name).put("namespace", "default");
        return new AdmissionAttributes(Operation.CREATE, KIND_V1, HPA_V1, "", "default", name, hpa, null, false,
                RequestContext.system("default"));
    }

    private static JsonNode json(String s) throws Exception {
        return JSON.readTree(s.replace('\'', '"'));
    }

    private static final String V2_RULE = "{'operations':['CREATE'],'apiGroups':['autoscaling'],'apiVersions':['v2'],"
            + "'resources':['horizontalpodautoscalers']%s}";

    @Test
    void aWebhookMatchesThroughAnEquivalentVersionUnlessExact() throws Exception {
        JsonNode rules = json("[" + V2_RULE.formatted("") + "]");
        AdmissionAttributes a = createV1("web");
        assertEquals(new AdmissionMatcher.Match(HPA_V2, KIND_V2),
                MATCHER.match(rules, true, JSON.missingNode(), JSON.missingNode(), a));
        assertNull(MATCHER.match(rules, false, JSON.missingNode(), JSON.missingNode(), a));
        JsonNode both = json("[" + V2_RULE.formatted("") + ",{'operations':['*'],'apiGroups':['*'],'apiVersions':['v1'],"
                + "'resources':['*']}]");
        assertEquals(new AdmissionMatcher.Match(HPA_V1, KIND_V1),
                MATCHER.match(both, true, JSON.missingNode(), JSON.missingNode(), a), "the request's own version first");
        StatusException e = assertThrows(StatusException.class, () -> new AdmissionMatcher(ns -> null, mapper(false))
                .match(rules, true, JSON.missingNode(), JSON.missingNode(), a));
        assertEquals(500, e.code());
        assertEquals("Internal error occurred: unable to convert to autoscaling/v2, Resource=horizontalpodautoscalers: unknown kind",
                e.getMessage());
    }

    @Test
    void aPolicyMatchesThroughAnEquivalentVersionWithItsNamesAndExclusions() throws Exception {
        AdmissionAttributes a = createV1("web");
        JsonNode equivalent = json("{'matchPolicy':'Equivalent','resourceRules':[" + V2_RULE.formatted("") + "]}");
        assertEquals(new AdmissionMatcher.Match(HPA_V2, KIND_V2), MATCHER.matchResources(equivalent, a));
        JsonNode exact = json("{'matchPolicy':'Exact','resourceRules':[" + V2_RULE.formatted("") + "]}");
        assertNull(MATCHER.matchResources(exact, a));
        JsonNode named = json("{'matchPolicy':'Equivalent','resourceRules':[" + V2_RULE.formatted(",'resourceNames':['db']") + "]}");
        assertNull(MATCHER.matchResources(named, a));
        assertEquals(new AdmissionMatcher.Match(HPA_V2, KIND_V2), MATCHER.matchResources(named, createV1("db")));
        JsonNode excluded = json("{'matchPolicy':'Equivalent','resourceRules':[{'operations':['*'],'apiGroups':['*'],"
                + "'apiVersions':['*'],'resources':['*']}],'excludeResourceRules':[" + V2_RULE.formatted("") + "]}");
        assertNull(MATCHER.matchResources(excluded, a), "excluded through the equivalent version");
        assertEquals(new AdmissionMatcher.Match(HPA_V1, KIND_V1), MATCHER.matchResources(JSON.missingNode(), a));
    }

    @Test
    void theRequestSeesTheMatchedKindAndResourceBesideTheRequestedOnes() {
        AdmissionAttributes a = createV1("web");
        VersionedAttributes v = VersionedAttributes.of(a, new AdmissionMatcher.Match(HPA_V2, KIND_V2), mapper(true));
        ObjectNode r = AdmissionRequests.withObjects(v);
        assertEquals("{\"group\":\"autoscaling\",\"version\":\"v2\",\"kind\":\"HorizontalPodAutoscaler\"}", r.path("kind").toString());
        assertEquals("{\"group\":\"autoscaling\",\"version\":\"v2\",\"resource\":\"horizontalpodautoscalers\"}",
                r.path("resource").toString());
        assertEquals("{\"group\":\"autoscaling\",\"version\":\"v1\",\"kind\":\"HorizontalPodAutoscaler\"}",
                r.path("requestKind").toString());
        assertEquals("v1", r.path("requestResource").path("version").asText());
        assertEquals("autoscaling/v2", r.path("object").path("apiVersion").asText());
        assertEquals("autoscaling/v1", a.object().path("apiVersion").asText());
    }
}
