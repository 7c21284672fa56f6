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

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Quota admission of object counts, compute resources and storage, against a quota held in memory as its status Store would hold it. */
class ResourceQuotaAdmissionTest {
    private static final GroupVersionResource CONFIGMAPS = new GroupVersionResource("", "v1", "configmaps");
    private static final GroupVersionResource DEPLOYMENTS = new GroupVersionResource("apps", "v1", "deployments");

    private ObjectNode quota;
    private final List<Boolean> writes = new ArrayList<>();
    private final ResourceQuotaAdmission plugin = new ResourceQuotaAdmission(ns -> List.of(quota), (ns, name, change, dryRun) -> {
        ObjectNode changed = change.apply(quota.deepCopy());
        if (changed != null) {
            writes.add(dryRun);
            if (!dryRun) {
                quota = changed;
            }
        }
    }, ResourceQuotaConfiguration.DEFAULT);

    private static ObjectNode quota(String hard, String used) {
        return Json.obj("{'metadata':{'name':'q','namespace':'team'},'spec':{'hard':" + hard + "}"
                + (used == null ? "" : ",'status':{'hard':" + hard + ",'used':" + used + "}") + "}");
    }

    private static AdmissionAttributes create(GroupVersionResource gvr, String name, boolean dryRun) {
        return new AdmissionAttributes(Operation.CREATE, new GroupVersionKind(gvr.group(), gvr.version(), "Kind"), gvr, "",
                "team", name, Json.obj("{'metadata':{'name':'" + name + "'}}"), null, dryRun,
                RequestContext.system("team"), null, null);
    }

    @Test
    void aCreateWithinTheQuotaIsChargedToItsUsage() {
        quota = quota("{'count/configmaps':'3','configmaps':'5'}", "{'count/configmaps':'2','configmaps':'2'}");

        plugin.validate(create(CONFIGMAPS, "c3", false));

        assertEquals("{\"count/configmaps\":\"3\",\"configmaps\":\"3\"}", quota.path("status").path("used").toString());
        assertEquals(List.of(false), writes);
    }

    @Test
    void aCreatePastTheQuotaIsRefusedWithKubesMessage() {
        quota = quota("{'count/configmaps':'3','configmaps':'5'}", "{'count/configmaps':'3','configmaps':'3'}");

        StatusException e = assertThrows(StatusException.class, () -> plugin.validate(create(CONFIGMAPS, "c4", false)));

        assertEquals(403, e.code());
        assertEquals("configmaps \"c4\" is forbidden: exceeded quota: q, requested: count/configmaps=1, used: "
                + "count/configmaps=3, limited: count/configmaps=3", e.getMessage());
        assertTrue(writes.isEmpty());
    }

    @Test
    void aQuotaWithoutUsageYetRefusesAsKubeDoes() {
        quota = Json.obj("{'metadata':{'name':'q','namespace':'team'},'spec':{'hard':{'count/deployments.apps':'1',"
                + "'count/configmaps':'1'}},'status':{'hard':{'count/deployments.apps':'1','count/configmaps':'1'},"
                + "'used':{'count/configmaps':'0'}}}");

        StatusException e = assertThrows(StatusException.class, () -> plugin.validate(create(DEPLOYMENTS, "web", false)));

        assertEquals("deployments.apps \"web\" is forbidden: status unknown for quota: q, resources: "
                + "count/deployments.apps", e.getMessage());
    }

    @Test
    void aQuotaTheControllerHasNotObservedLimitsNothingYet() {
        quota = quota("{'count/configmaps':'1'}", null);

        plugin.validate(create(CONFIGMAPS, "c1", false));

        assertTrue(writes.isEmpty());
        assertTrue(quota.path("status").isMissingNode());
    }

    @Test
    void theHardLimitsObservedInTheStatusAreEnforcedNotTheSpecsAsKubeDoes() {
        // spec.hard was raised to 5 and lowered for secrets; the controller has not copied either change yet
        quota = Json.obj("{'metadata':{'name':'q','namespace':'team'},'spec':{'hard':{'count/configmaps':'5'}},"
                + "'status':{'hard':{'count/configmaps':'2'},'used':{'count/configmaps':'2'}}}");

        StatusException e = assertThrows(StatusException.class, () -> plugin.validate(create(CONFIGMAPS, "c3", false)));
        assertEquals("configmaps \"c3\" is forbidden: exceeded quota: q, requested: count/configmaps=1, used: "
                + "count/configmaps=2, limited: count/configmaps=2", e.getMessage());

        quota = Json.obj("{'metadata':{'name':'q','namespace':'team'},'spec':{'hard':{'count/configmaps':'1'}},"
                + "'status':{'hard':{'count/configmaps':'3'},'used':{'count/configmaps':'1'}}}");
        plugin.validate(create(CONFIGMAPS, "c2", false));
        assertEquals("{\"count/configmaps\":\"2\"}", quota.path("status").path("used").toString());
    }

    @Test
    void aDryRunIsCheckedAndWritesNothingAndOtherResourcesAreNotCounted() {
        quota = quota("{'count/configmaps':'1'}", "{'count/configmaps':'0'}");

        plugin.validate(create(CONFIGMAPS, "c1", true));
        plugin.validate(create(DEPLOYMENTS, "web", false));

        assertEquals(List.of(true), writes);
        assertEquals("{\"count/configmaps\":\"0\"}", quota.path("status").path("used").toString());
    }

    @Test
    void quotaResourceNamesCountTheirResources() {
        assertEquals(new GroupVersionResource("", "v1", "configmaps"), QuotaResources.counted("count/configmaps"));
        assertEquals(new GroupVersionResource("", "v1", "pods"), QuotaResources.counted("pods"));
        assertEquals(new GroupVersionResource("apps", "v1", "deployments"), QuotaResources.counted("count/deployments.apps"));
        assertEquals(null, QuotaResources.counted("requests.cpu"));
    }

    private static AdmissionAttributes createPod(String spec) {
        GroupVersionResource pods = new GroupVersionResource("", "v1", "pods");
        return new AdmissionAttributes(Operation.CREATE, new GroupVersionKind("", "v1", "Pod"), pods, "", "team", "p",
                Json.obj("{'metadata':{'name':'p'},'spec':" + spec + ",'status':{'phase':'Pending'}}"), null, false,
                RequestContext.system("team"), null, null);
    }

    @Test
    void aPodPastACpuQuotaIsRefusedWithKubesMessageInCanonicalQuantities() {
        quota = quota("{'requests.cpu':'1','requests.memory':'1Gi'}", "{'requests.cpu':'800m','requests.memory':'512Mi'}");

        StatusException e = assertThrows(StatusException.class, () -> plugin.validate(createPod(
                "{'containers':[{'name':'c1','resources':{'requests':{'cpu':'0.5','memory':'256Mi'}}}]}")));

        assertEquals("pods \"p\" is forbidden: exceeded quota: q, requested: requests.cpu=500m, used: "
                + "requests.cpu=800m, limited: requests.cpu=1", e.getMessage());

        plugin.validate(createPod("{'containers':[{'name':'c1','resources':{'requests':{'cpu':'200m','memory':'512Mi'}}}]}"));
        assertEquals("{\"requests.cpu\":\"1\",\"requests.memory\":\"1Gi\"}", quota.path("status").path("used").toString());
    }

    @Test
    void aPodThatDoesNotSayATrackedResourceIsRefusedWithKubesMessage() {
        quota = quota("{'limits.cpu':'2','requests.memory':'1Gi','pods':'5'}",
                "{'limits.cpu':'0','requests.memory':'0','pods':'0'}");

        StatusException e = assertThrows(StatusException.class, () -> plugin.validate(createPod(
                "{'containers':[{'name':'c1'},{'name':'c2','resources':{'limits':{'cpu':'1'},'requests':{'memory':'1Mi'}}}],"
                        + "'initContainers':[{'name':'i1','resources':{'limits':{'cpu':'1'}}}]}")));

        assertEquals(403, e.code());
        assertEquals("pods \"p\" is forbidden: failed quota: q: must specify limits.cpu for: c1; requests.memory for: "
                + "c1,i1", e.getMessage());
    }

    @Test
    void scopedQuotasChargeOnlyThePodsInTheirScopes() {
        quota = Json.obj("{'metadata':{'name':'q','namespace':'team'},'spec':{'hard':{'pods':'1'},'scopes':['BestEffort'],"
                + "'scopeSelector':{'matchExpressions':[{'scopeName':'PriorityClass','operator':'In','values':['low']}]}},"
                + "'status':{'hard':{'pods':'1'},'used':{'pods':'1'}}}");

        plugin.validate(createPod("{'containers':[{'name':'c','resources':{'requests':{'cpu':'1'}}}],'priorityClassName':'low'}"));
        plugin.validate(createPod("{'containers':[{'name':'c'}],'priorityClassName':'high'}"));
        plugin.validate(createPod("{'containers':[{'name':'c'}]}"));
        StatusException e = assertThrows(StatusException.class, () -> plugin.validate(createPod(
                "{'containers':[{'name':'c'}],'priorityClassName':'low'}")));
        assertEquals("pods \"p\" is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1",
                e.getMessage());
        assertTrue(writes.isEmpty());
    }

    @Test
    void claimsAreChargedTheirStorageAndTheirClassesToo() {
        GroupVersionResource claims = new GroupVersionResource("", "v1", "persistentvolumeclaims");
        quota = quota("{'requests.storage':'10Gi','fast.storageclass.storage.k8s.io/requests.storage':'1Gi',"
                + "'persistentvolumeclaims':'3'}", "{'requests.storage':'0','fast.storageclass.storage.k8s.io/requests.storage':'0',"
                + "'persistentvolumeclaims':'0'}");
        AdmissionAttributes a = new AdmissionAttributes(Operation.CREATE, new GroupVersionKind("", "v1", "PersistentVolumeClaim"),
                claims, "", "team", "data", Json.obj("{'metadata':{'name':'data'},'spec':{'storageClassName':'fast',"
                + "'resources':{'requests':{'storage':'2Gi'}}}}"), null, false, RequestContext.system("team"), null, null);

        StatusException e = assertThrows(StatusException.class, () -> plugin.validate(a));

        assertEquals("persistentvolumeclaims \"data\" is forbidden: exceeded quota: q, requested: "
                + "fast.storageclass.storage.k8s.io/requests.storage=2Gi, used: fast.storageclass.storage.k8s.io/requests.storage=0, "
                + "limited: fast.storageclass.storage.k8s.io/requests.storage=1Gi", e.getMessage());
    }

    @Test
    void podUsageIsTheContainersSumOrTheLargestInitContainerPlusOverhead() {
        ObjectNode pod = Json.obj("{'spec':{'containers':[{'name':'a','resources':{'requests':{'cpu':'100m','example.com/gpu':'1'},"
                + "'limits':{'memory':'1Gi'}}},{'name':'b','resources':{'requests':{'cpu':'200m'},'limits':{'memory':'512Mi'}}}],"
                + "'initContainers':[{'name':'i','resources':{'requests':{'cpu':'1'}}}],'overhead':{'cpu':'10m'}},"
                + "'status':{'phase':'Running'}}");

        assertEquals("{\"count/pods\":\"1\",\"cpu\":\"1010m\",\"limits.memory\":\"1536Mi\",\"pods\":\"1\","
                        + "\"requests.cpu\":\"1010m\",\"requests.example.com/gpu\":\"1\"}",
                ResourceLists.write(PodEvaluator.INSTANCE.usage(pod)).toString());
        pod.with("status").put("phase", "Succeeded");
        assertEquals("{\"count/pods\":\"1\"}", ResourceLists.write(PodEvaluator.INSTANCE.usage(pod)).toString(),
                "a finished pod holds no compute resources");
        assertTrue(PodEvaluator.INSTANCE.matchesResource("requests.example.com/gpu"));
        assertTrue(!PodEvaluator.INSTANCE.matchesResource("requests.storage"));
    }

    @Test
    void aClaimsResizeIsChargedWhatItAdds() {
        GroupVersionResource claims = new GroupVersionResource("", "v1", "persistentvolumeclaims");
        quota = quota("{'requests.storage':'3Gi'}", "{'requests.storage':'2Gi'}");
        ObjectNode old = Json.obj("{'metadata':{'name':'data'},'spec':{'resources':{'requests':{'storage':'2Gi'}}}}");
        ObjectNode grown = Json.obj("{'metadata':{'name':'data'},'spec':{'resources':{'requests':{'storage':'5Gi'}}}}");
        AdmissionAttributes resize = new AdmissionAttributes(Operation.UPDATE, new GroupVersionKind("", "v1",
                "PersistentVolumeClaim"), claims, "", "team", "data", grown, old, false, RequestContext.system("team"), null, null);

        StatusException e = assertThrows(StatusException.class, () -> plugin.validate(resize));
        assertEquals("persistentvolumeclaims \"data\" is forbidden: exceeded quota: q, requested: requests.storage=3Gi, "
                + "used: requests.storage=2Gi, limited: requests.storage=3Gi", e.getMessage());

        grown.with("spec").with("resources").with("requests").put("storage", "3Gi");
        plugin.validate(resize);
        assertEquals("{\"requests.storage\":\"3Gi\"}", quota.path("status").path("used").toString());
        plugin.validate(new AdmissionAttributes(Operation.UPDATE, new GroupVersionKind("", "v1", "ConfigMap"), CONFIGMAPS, "",
                "team", "c", Json.obj("{'metadata':{'name':'c'}}"), Json.obj("{}"), false, RequestContext.system("team"),
                null, null));
        assertEquals(List.of(false), writes, "other kinds' updates are not charged");
    }

    @Test
    void aPodsResizeIsChargedWhatItAdds() {
        GroupVersionResource pods = new GroupVersionResource("", "v1", "pods");
        quota = quota("{'requests.cpu':'1','pods':'5'}", "{'requests.cpu':'600m','pods':'1'}");
        ObjectNode old = Json.obj("{'metadata':{'name':'p'},'spec':{'containers':[{'name':'c','resources':"
                + "{'requests':{'cpu':'500m'}}}]},'status':{'phase':'Running'}}");
        ObjectNode grown = old.deepCopy();
        ((ObjectNode) grown.path("spec").path("containers").get(0).path("resources").path("requests")).put("cpu", "1");
        AdmissionAttributes resize = new AdmissionAttributes(Operation.UPDATE, new GroupVersionKind("", "v1", "Pod"), pods,
                "resize", "team", "p", grown, old, false, RequestContext.system("team"), null, null);

        StatusException e = assertThrows(StatusException.class, () -> plugin.validate(resize));
        assertEquals("pods \"p\" is forbidden: exceeded quota: q, requested: requests.cpu=500m, used: "
                + "requests.cpu=600m, limited: requests.cpu=1", e.getMessage());

        ((ObjectNode) grown.path("spec").path("containers").get(0).path("resources").path("requests")).put("cpu", "800m");
        plugin.validate(resize);
        assertEquals("{\"requests.cpu\":\"900m\",\"pods\":\"1\"}", quota.path("status").path("used").toString());
        plugin.validate(new AdmissionAttributes(Operation.UPDATE, new GroupVersionKind("", "v1", "Pod"), pods, "status",
                "team", "p", grown, old, false, RequestContext.system("team"), null, null));
        assertEquals(List.of(false), writes, "other subresources are not charged");
    }
}
