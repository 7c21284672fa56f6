package io.kubelix.resource.autoscaling;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.registry.TableColumn;
import io.kubelix.api.request.RequestContext;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HPAStrategyTest {
    static final RequestContext CTX = RequestContext.system("default");
    static final ObjectMapper MAPPER = new ObjectMapper().configure(JsonParser.Feature.ALLOW_SINGLE_QUOTES, true);

    /** JSON with single quotes, as the node type the caller expects. */
    @SuppressWarnings("unchecked")
    static <T extends com.fasterxml.jackson.databind.JsonNode> T json(String json) {
        try {
            return (T) MAPPER.readTree(json.replace('\'', '"'));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(json, e);
        }
    }

    static List<String> create(RESTCreateStrategy strategy, ObjectNode obj) {
        strategy.prepareForCreate(CTX, obj);
        return strategy.validate(CTX, obj).stream().map(FieldError::message).toList();
    }

    static ObjectNode hpa(String spec) {
        return json("{'apiVersion':'autoscaling/v2','kind':'HorizontalPodAutoscaler','metadata':{'name':'web'},'spec':"
                + spec + "}");
    }

    static List<Object> cells(List<TableColumn> columns, ObjectNode o) {
        return columns.stream().filter(c -> !c.isAge()).map(c -> c.cell().apply(o)).toList();
    }

    @Test
    void aTargetValueThatIsAQuantityIsAccepted() {
        ObjectNode ok = hpa("{'scaleTargetRef':{'apiVersion':'apps/v1','kind':'Deployment','name':'web'},'maxReplicas':5,"
                + "'metrics':[{'type':'Pods','pods':{'metric':{'name':'qps'},'target':{'type':'AverageValue',"
                + "'averageValue':'1.5k'}}}]}");
        assertEquals(List.of(), create(new HPAStrategy(), ok));
    }

    @Test
    void defaultsMinReplicasAndTheCpuMetricAndResetsStatus() {
        ObjectNode h = hpa("{'scaleTargetRef':{'apiVersion':'apps/v1','kind':'Deployment','name':'web'},'maxReplicas':5}");
        h.putObject("status").put("currentReplicas", 3);
        assertEquals(List.of(), create(new HPAStrategy(), h));
        assertEquals(1, h.path("spec").path("minReplicas").asInt());
        assertEquals(json("[{'type':'Resource','resource':{'name':'cpu','target':{'type':'Utilization',"
                + "'averageUtilization':80}}}]"), h.path("spec").path("metrics"));
        assertFalse(h.path("spec").has("behavior"), "no behavior is defaulted unless one is given");
        assertEquals(json("{'desiredReplicas':0}"), h.path("status"));
    }

    @Test
    void aGivenBehaviorIsCompletedWithKubesRules() {
        ObjectNode h = hpa("{'scaleTargetRef':{'kind':'Deployment','name':'web'},'maxReplicas':5,'behavior':{'scaleDown':"
                + "{'stabilizationWindowSeconds':60}}}");
        assertEquals(List.of(), create(new HPAStrategy(), h));
        assertEquals(json("{'scaleUp':{'stabilizationWindowSeconds':0,'selectPolicy':'Max','policies':[{'type':'Pods',"
                + "'value':4,'periodSeconds':15},{'type':'Percent','value':100,'periodSeconds':15}]},'scaleDown':{"
                + "'stabilizationWindowSeconds':60,'selectPolicy':'Max','policies':[{'type':'Percent','value':100,"
                + "'periodSeconds':15}]}}"), h.path("spec").path("behavior"));
    }

    @Test
    void refusesWhatKubeRefuses() {
        assertEquals(List.of("spec.maxReplicas: Invalid value: 2: must be greater than or equal to `minReplicas`",
                "spec.scaleTargetRef.kind: Required value", "spec.scaleTargetRef.name: Required value"),
                create(new HPAStrategy(), hpa("{'minReplicas':3,'maxReplicas':2}")));
        assertEquals(List.of("spec.minReplicas: Invalid value: 0: must be greater than or equal to 1",
                "spec.maxReplicas: Invalid value: 0: must be greater than 0"),
                create(new HPAStrategy(), hpa("{'scaleTargetRef':{'kind':'Deployment','name':'web'},'minReplicas':0}")));
        assertEquals(List.of("spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0",
                "spec.metrics[1].type: Unsupported value: \"Cpu\": supported values: \"ContainerResource\", \"External\", "
                        + "\"Object\", \"Pods\", \"Resource\"",
                "spec.metrics[2].pods.target.averageValue: Required value: must specify a positive target averageValue",
                "spec.behavior.scaleUp.policies[0].periodSeconds: Invalid value: 3600: must be less than or equal to 1800"),
                create(new HPAStrategy(), hpa("{'scaleTargetRef':{'kind':'Deployment','name':'web'},'maxReplicas':3,"
                        + "'metrics':[{'type':'Resource','resource':{'name':'cpu','target':{'type':'Utilization',"
                        + "'averageUtilization':0}}},{'type':'Cpu'},{'type':'Pods','pods':{'metric':{'name':'qps'},"
                        + "'target':{'type':'AverageValue'}}}],'behavior':{'scaleUp':{'policies':[{'type':'Pods',"
                        + "'value':1,'periodSeconds':3600}]}}}")));
    }

    @Test
    void theStatusSubresourceChangesOnlyTheStatus() {
        ObjectNode old = hpa("{'scaleTargetRef':{'kind':'Deployment','name':'web'},'maxReplicas':5}");
        create(new HPAStrategy(), old);
        ObjectNode update = old.deepCopy();
        ((ObjectNode) update.path("spec")).put("maxReplicas", 50);
        ((ObjectNode) update.path("status")).put("currentReplicas", 2).put("desiredReplicas", -1);
        HPAStatusStrategy status = new HPAStatusStrategy();
        status.prepareForUpdate(CTX, update, old);
        assertEquals(5, update.path("spec").path("maxReplicas").asInt());
        assertEquals(List.of("status.desiredReplicas: Invalid value: -1: must be greater than or equal to 0"),
                status.validateUpdate(CTX, update, old).stream().map(FieldError::message).toList());
    }

    @Test
    void printsKubesColumnsAndTargets() {
        ObjectNode h = hpa("{'scaleTargetRef':{'kind':'Deployment','name':'web'},'maxReplicas':5}");
        create(new HPAStrategy(), h);
        StoreSpec spec = AutoscalingRESTStorageProvider.v2Spec();
        assertEquals(List.of("Name", "Reference", "Targets", "MinPods", "MaxPods", "Replicas", "Age"),
                spec.tableColumns().stream().map(TableColumn::name).toList());
        assertEquals(List.of("web", "Deployment/web", "cpu: <unknown>/80%", "1", 5L, 0L), cells(spec.tableColumns(), h));

        h.set("status", json("{'currentReplicas':2,'desiredReplicas':2,'currentMetrics':[{'type':'Resource','resource':"
                + "{'name':'cpu','current':{'averageUtilization':42}}}]}"));
        assertEquals("cpu: 42%/80%", cells(spec.tableColumns(), h).get(2));
        assertEquals("memory: <unknown>/1Gi, <unknown>/10 (avg) + 1 more...", HPAPrinters.targets(json("[{'type':"
                + "'Resource','resource':{'name':'memory','target':{'type':'AverageValue','averageValue':'1Gi'}}},{'type':"
                + "'Object','object':{'target':{'type':'AverageValue','averageValue':'10'}}},{'type':'Pods','pods':{"
                + "'target':{'averageValue':'1'}}}]"), json("[]")));
        assertEquals(List.of("hpa"), spec.shortNames());
        assertEquals(List.of("all"), spec.categories());
        assertTrue(spec.namespaced());
    }
}
