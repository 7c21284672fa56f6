package io.kubelix.resource.autoscaling;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.registry.StoreSpec;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.kubelix.resource.autoscaling.HPAStrategyTest.CTX;
import static io.kubelix.resource.autoscaling.HPAStrategyTest.cells;
import static io.kubelix.resource.autoscaling.HPAStrategyTest.create;
import static io.kubelix.resource.autoscaling.HPAStrategyTest.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

class HPAV1ConversionTest {
    private final HPAV1Conversion conversion = new HPAV1Conversion(new ObjectMapper());

    /** What {@code kubectl autoscale deployment web --max=5} posts. */
    private static ObjectNode autoscale() {
        return json("{'apiVersion':'autoscaling/v1','kind':'HorizontalPodAutoscaler','metadata':{'name':'web'},'spec':"
                + "{'scaleTargetRef':{'apiVersion':'apps/v1','kind':'Deployment','name':'web'},'maxReplicas':5},"
                + "'status':{'currentReplicas':0,'desiredReplicas':0}}");
    }

    @Test
    void kubectlAutoscaleGetsKubesDefaultsThroughV1() {
        StoreSpec v1 = AutoscalingRESTStorageProvider.v1Spec(conversion);
        ObjectNode h = autoscale();
        assertEquals(List.of(), create(v1.createStrategy(), h));
        assertEquals(HPAStrategyTest.<ObjectNode>json("{'scaleTargetRef':{'apiVersion':'apps/v1','kind':'Deployment','name':'web'},'minReplicas':1,"
                + "'maxReplicas':5,'targetCPUUtilizationPercentage':80}"), h.path("spec"));
        assertEquals(HPAStrategyTest.<ObjectNode>json("{'currentReplicas':0,'desiredReplicas':0}"), h.path("status"));
        assertFalse(h.path("metadata").has("annotations"), "nothing v1 cannot express");

        ObjectNode stored = conversion.toStorage(h);
        assertEquals("autoscaling/v2", stored.path("apiVersion").asText());
        assertEquals(HPAStrategyTest.<ObjectNode>json("{'desiredReplicas':0}"), stored.path("status"),
                "a zero currentReplicas is omitted in v2");
        assertEquals(80, stored.path("spec").path("metrics").get(0).path("resource").path("target")
                .path("averageUtilization").asInt());
        assertEquals(List.of("web", "Deployment/web", "cpu: <unknown>/80%", "1", 5L, 0L), cells(v1.tableColumns(), h));
    }

    @Test
    void v1ValidationHasTheStoredVersionsPaths() {
        ObjectNode h = autoscale();
        ((ObjectNode) h.path("spec")).put("minReplicas", 6).put("targetCPUUtilizationPercentage", 0);
        assertEquals(List.of("spec.maxReplicas: Invalid value: 5: must be greater than or equal to `minReplicas`",
                "spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0"),
                create(AutoscalingRESTStorageProvider.v1Spec(conversion).createStrategy(), h));
    }

    @Test
    void whatV1CannotExpressTravelsInKubesAnnotations() {
        ObjectNode v2 = json("{'apiVersion':'autoscaling/v2','kind':'HorizontalPodAutoscaler','metadata':{'name':'web',"
                + "'annotations':{'team':'a'}},'spec':{'scaleTargetRef':{'kind':'Deployment','name':'web'},'minReplicas':1,"
                + "'maxReplicas':5,'metrics':[{'type':'Resource','resource':{'name':'memory','target':{'type':"
                + "'AverageValue','averageValue':'1Gi'}}},{'type':'Resource','resource':{'name':'cpu','target':{'type':"
                + "'Utilization','averageUtilization':60}}}],'behavior':{'scaleDown':{'stabilizationWindowSeconds':60,"
                + "'selectPolicy':'Max','policies':[{'type':'Percent','value':100,'periodSeconds':15}]}}},'status':{"
                + "'currentReplicas':2,'desiredReplicas':3,'currentMetrics':[{'type':'Resource','resource':{'name':'cpu',"
                + "'current':{'averageUtilization':70}}}],'conditions':[{'type':'AbleToScale','status':'True'}]}}");
        ObjectNode v1 = conversion.fromStorage(v2);
        assertEquals(60, v1.path("spec").path("targetCPUUtilizationPercentage").asInt());
        assertEquals(70, v1.path("status").path("currentCPUUtilizationPercentage").asInt());
        ObjectNode annotations = (ObjectNode) v1.path("metadata").path("annotations");
        assertEquals(List.of("team", HPAV1Conversion.METRICS, HPAV1Conversion.BEHAVIOR, HPAV1Conversion.CONDITIONS),
                List.copyOf(iterable(annotations)));

        ObjectNode back = conversion.toStorage(v1);
        assertEquals(HPAStrategyTest.<ObjectNode>json("{'team':'a'}"), back.path("metadata").path("annotations"));
        assertEquals(v2.path("spec").path("behavior"), back.path("spec").path("behavior"));
        assertEquals(v2.path("status").path("conditions"), back.path("status").path("conditions"));
        assertEquals(2, back.path("spec").path("metrics").size());
        assertEquals(v2.path("spec").path("metrics").get(0), back.path("spec").path("metrics").get(1));
    }

    private static List<String> iterable(ObjectNode o) {
        List<String> names = new java.util.ArrayList<>();
        o.fieldNames().forEachRemaining(names::add);
        return names;
    }

    /** The Store fills uid and creationTimestamp on the metadata node it held before the strategy ran. */
    @Test
    void aConvertedStrategyKeepsTheObjectsMetadataNode() {
        ObjectNode h = autoscale();
        ObjectNode meta = (ObjectNode) h.path("metadata");
        AutoscalingRESTStorageProvider.v1Spec(conversion).createStrategy().prepareForCreate(CTX, h);
        meta.put("uid", "u-1");
        assertEquals("u-1", h.path("metadata").path("uid").asText());
    }

    @Test
    void theStatusSubresourceOfV1KeepsTheSpec() {
        ConvertedStrategy status = new ConvertedStrategy(conversion, null, new HPAStatusStrategy());
        ObjectNode old = autoscale();
        create(AutoscalingRESTStorageProvider.v1Spec(conversion).createStrategy(), old);
        ObjectNode update = old.deepCopy();
        ((ObjectNode) update.path("spec")).put("maxReplicas", 9);
        ((ObjectNode) update.path("status")).put("currentReplicas", 4).put("currentCPUUtilizationPercentage", 55);
        status.prepareForUpdate(CTX, update, old);
        assertEquals(5, update.path("spec").path("maxReplicas").asInt());
        assertEquals(4, update.path("status").path("currentReplicas").asInt());
        assertEquals(55, update.path("status").path("currentCPUUtilizationPercentage").asInt());
    }
}
