package io.kubelix.resource.core.volume;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.request.RequestContext;
import io.kubelix.resource.core.testing.Json;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PersistentVolumeStrategyTest {
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
