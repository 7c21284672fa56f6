package io.kubelix.resource.core;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.request.RequestContext;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class VolumeAndQuotaStrategyTest {
    private static final RequestContext CTX = RequestContext.system("default");

    private static List<String> errors(RESTCreateStrategy strategy, ObjectNode obj) {
        strategy.prepareForCreate(CTX, obj);
        return strategy.validate(CTX, obj).stream().map(FieldError::message).toList();
    }

    @Test
    void volumesDefaultAndNeedCapacityAccessModesAndOneSource() {
        PersistentVolumeStrategy pv = PersistentVolumeStrategy.volumes();
        ObjectNode ok = Json.obj("{'metadata':{'name':'pv1'},'spec':{'capacity':{'storage':'1Gi'},'accessModes':['ReadWriteOnce'],"
                + "'hostPath':{'path':'/data'}},'status':{'phase':'Bound'}}");
        assertTrue(errors(pv, ok).isEmpty());
        assertEquals("Retain", ok.path("spec").path("persistentVolumeReclaimPolicy").asText());
        assertEquals("Filesystem", ok.path("spec").path("volumeMode").asText());
        assertEquals("Pending", ok.path("status").path("phase").asText(), "a client does not create a status");
        assertTrue(ok.path("status").path("lastPhaseTransitionTime").asText().endsWith("Z"));
        ObjectNode bound = ok.deepCopy();
        ((ObjectNode) bound.path("status")).put("phase", "Bound").remove("lastPhaseTransitionTime");
        pv.statusStrategy().prepareForUpdate(CTX, bound, ok);
        assertEquals("Bound", bound.path("status").path("phase").asText());
        assertTrue(bound.path("status").has("lastPhaseTransitionTime"), "a phase change is stamped");
        assertEquals(List.of("status.phase: Unsupported value: \"Gone\": supported values: \"Available\", \"Bound\", "
                + "\"Failed\", \"Pending\", \"Released\""), messages(pv.statusStrategy().validateUpdate(CTX,
                Json.obj("{'status':{'phase':'Gone'}}"), ok)));
        assertEquals(List.of("spec.accessModes: Required value: must specify at least 1 access mode",
                        "spec.capacity: Required value",
                        "spec.capacity: Unsupported value: core.ResourceList{}: supported values: \"storage\"",
                        "spec: Required value: must specify a volume type"),
                errors(pv, Json.obj("{'metadata':{'name':'pv2'},'spec':{}}")));
        assertEquals(List.of("spec.hostPath.path: Required value"), errors(pv, Json.obj("{'metadata':{'name':'pv3'},'spec':"
                + "{'capacity':{'storage':'1Gi'},'accessModes':['ReadWriteOnce'],'hostPath':{}}}")));
        StatusException notAQuantity = assertThrows(StatusException.class, () -> pv.prepareForCreate(CTX,
                Json.obj("{'spec':{'capacity':{'storage':'lots'}}}")));
        assertEquals(400, notAQuantity.code());
        assertTrue(notAQuantity.getMessage().contains("quantities must match the regular expression"));
    }

    @Test
    void claimsNeedStorageAndAccessModesAndKeepTheirSpec() {
        PersistentVolumeStrategy pvc = PersistentVolumeStrategy.claims();
        ObjectNode claim = Json.obj("{'metadata':{'name':'data'},'spec':{'accessModes':['ReadWriteOnce'],"
                + "'resources':{'requests':{'storage':'1Gi'}}}}");
        assertTrue(errors(pvc, claim).isEmpty());
        assertEquals("Pending", claim.path("status").path("phase").asText());
        assertEquals("Filesystem", claim.path("spec").path("volumeMode").asText());
        assertEquals(List.of("spec.accessModes: Required value: at least 1 access mode is required",
                "spec.resources[storage]: Required value"), errors(pvc, Json.obj("{'metadata':{'name':'x'},'spec':{}}")));
        assertEquals(List.of("spec.accessModes: Unsupported value: \"ReadWriteSometimes\": supported values: \"ReadOnlyMany\", "
                        + "\"ReadWriteMany\", \"ReadWriteOnce\", \"ReadWriteOncePod\"",
                        "spec.resources.requests[storage]: Invalid value: \"0\": must be greater than zero"),
                errors(pvc, Json.obj("{'metadata':{'name':'x'},'spec':{'accessModes':['ReadWriteSometimes'],"
                        + "'resources':{'requests':{'storage':'0'}}}}")));

        ObjectNode grown = claim.deepCopy();
        ((ObjectNode) grown.path("spec").path("resources").path("requests")).put("storage", "2Gi");
        pvc.prepareForUpdate(CTX, grown, claim);
        assertEquals(List.of("spec: Forbidden: spec is immutable after creation except resources.requests and "
                + "volumeAttributesClassName for bound claims"), messages(pvc.validateUpdate(CTX, grown, claim)));
        ObjectNode bound = claim.deepCopy();
        ((ObjectNode) bound.path("status")).put("phase", "Bound");
        ObjectNode resized = bound.deepCopy();
        ((ObjectNode) resized.path("spec").path("resources").path("requests")).put("storage", "2Gi");
        ((ObjectNode) resized.path("spec")).put("volumeName", "pv1");
        assertTrue(pvc.validateUpdate(CTX, resized, bound).isEmpty(), "a bound claim grows, and an unset volumeName is set");
    }

    @Test
    void quotasHoldStandardResourcesWithNonNegativeAmountsAndStartWithoutStatus() {
        ResourceQuotaStrategy quota = new ResourceQuotaStrategy();
        ObjectNode q = Json.obj("{'metadata':{'name':'q'},'spec':{'hard':{'pods':'10','requests.cpu':'2',"
                + "'count/deployments.apps':'3'}},'status':{'used':{'pods':'99'}}}");
        assertTrue(errors(quota, q).isEmpty());
        assertTrue(q.path("status").isMissingNode());
        assertEquals(List.of("spec.hard[pods]: Invalid value: \"-1\": must be greater than or equal to 0"),
                errors(quota, Json.obj("{'spec':{'hard':{'pods':'-1'}}}")));
        assertEquals(List.of("spec.hard[widgets]: Invalid value: \"widgets\": must be a standard resource for quota"),
                errors(quota, Json.obj("{'spec':{'hard':{'widgets':'1'}}}")));
        assertEquals(List.of("spec.hard[pods]: Invalid value: \"1500m\": must be an integer"),
                errors(quota, Json.obj("{'spec':{'hard':{'pods':'1500m'}}}")));
        ObjectNode withStatus = Json.obj("{'status':{'hard':{'pods':'10','limits.cpu':'2','requests.memory':'1Gi'},"
                + "'used':{'pods':'3','limits.cpu':'500m'}}}");
        assertEquals("pods: 3/10, requests.memory: 0/1Gi", QuotaPrinters.usage(withStatus, false));
        assertEquals("limits.cpu: 500m/2", QuotaPrinters.usage(withStatus, true));
    }

    @Test
    void limitRangesOrderTheirAmounts() {
        LimitRangeStrategy limits = new LimitRangeStrategy();
        assertTrue(errors(limits, Json.obj("{'spec':{'limits':[{'type':'Container','min':{'cpu':'100m'},'max':{'cpu':'1'},"
                + "'default':{'cpu':'500m'},'defaultRequest':{'cpu':'200m'},'maxLimitRequestRatio':{'cpu':'5'}}]}}")).isEmpty());
        assertEquals(List.of("spec.limits[0].min[cpu]: Invalid value: \"2\": min value 2 is greater than max value 1"),
                errors(limits, Json.obj("{'spec':{'limits':[{'type':'Container','min':{'cpu':'2'},'max':{'cpu':'1'}}]}}")));
        assertEquals(List.of("spec.limits[0].default[memory]: Invalid value: \"2Gi\": default value 2Gi is greater than max value 1Gi"),
                errors(limits, Json.obj("{'spec':{'limits':[{'type':'Container','max':{'memory':'1Gi'},'default':{'memory':'2Gi'}}]}}")));
        assertEquals(List.of("spec.limits[0].default: Forbidden: may not be specified when `type` is 'Pod'",
                        "spec.limits[1].type: Duplicate value: \"Pod\""),
                errors(limits, Json.obj("{'spec':{'limits':[{'type':'Pod','default':{'cpu':'1'}},{'type':'Pod'}]}}")));
        assertEquals(List.of("spec.limits[0].type: Unsupported value: \"Node\": supported values: \"Container\", "
                + "\"PersistentVolumeClaim\", \"Pod\""), errors(limits, Json.obj("{'spec':{'limits':[{'type':'Node'}]}}")));
    }

    @Test
    void volumePrintersAsKube() {
        ObjectNode pv = Json.obj("{'metadata':{'name':'pv1'},'spec':{'capacity':{'storage':'1Gi'},'accessModes':"
                + "['ReadWriteMany','ReadWriteOnce'],'persistentVolumeReclaimPolicy':'Retain','storageClassName':'fast',"
                + "'claimRef':{'namespace':'default','name':'data'}},'status':{'phase':'Bound'}}");
        assertEquals(List.of("pv1", "1Gi", "RWO,RWX", "Retain", "Bound", "default/data", "fast", "<unset>", "", "<unset>"),
                VolumePrinters.volumeColumns().stream().filter(c -> !c.isAge()).map(c -> c.cell().apply(pv)).toList());
        ObjectNode pvc = Json.obj("{'metadata':{'name':'data'},'spec':{'volumeName':'pv1','storageClassName':'fast'},"
                + "'status':{'phase':'Bound','capacity':{'storage':'1Gi'},'accessModes':['ReadWriteOnce']}}");
        assertEquals(List.of("data", "Bound", "pv1", "1Gi", "RWO", "fast", "<unset>", "<unset>"),
                VolumePrinters.claimColumns().stream().filter(c -> !c.isAge()).map(c -> c.cell().apply(pvc)).toList());
    }

    private static List<String> messages(List<FieldError> errs) {
        return errs.stream().map(FieldError::message).toList();
    }
}
