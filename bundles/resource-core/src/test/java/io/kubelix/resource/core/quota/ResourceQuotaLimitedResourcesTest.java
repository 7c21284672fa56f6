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

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The limitedResources of ResourceQuota's admission configuration: what may be consumed only under a covering quota. */
class ResourceQuotaLimitedResourcesTest {
    private static final GroupVersionResource CLAIMS = new GroupVersionResource("", "v1", "persistentvolumeclaims");
    private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
    private static final ResourceQuotaConfiguration CONFIG = ResourceQuotaConfiguration.of(Json.obj("""
            {'apiVersion':'apiserver.config.k8s.io/v1','kind':'Configuration','limitedResources':[
              {'resource':'persistentvolumeclaims','matchContains':['.storageclass.storage.k8s.io/requests.storage']},
              {'resource':'pods','matchScopes':[{'scopeName':'PriorityClass','operator':'In','values':['cluster-services']}]}]}
            """));

    private final List<ObjectNode> quotas = new ArrayList<>();
    private final ResourceQuotaAdmission plugin = new ResourceQuotaAdmission(ns -> quotas,
            (ns, name, change, dryRun) -> change.apply(quotas.get(0).deepCopy()), CONFIG);

    private static AdmissionAttributes create(GroupVersionResource gvr, String kind, String name, String body) {
        return new AdmissionAttributes(Operation.CREATE, new GroupVersionKind("", "v1", kind), gvr, "", "team", name,
                Json.obj(body), null, false, RequestContext.system("team"), null, null);
    }

    private static AdmissionAttributes claim(String storageClass) {
        return create(CLAIMS, "PersistentVolumeClaim", "data", "{'metadata':{'name':'data'},'spec':{'storageClassName':'"
                + storageClass + "','resources':{'requests':{'storage':'1Gi'}}}}");
    }

    private static AdmissionAttributes pod(String priorityClass) {
        return create(PODS, "Pod", "p", "{'metadata':{'name':'p'},'spec':{'containers':[{'name':'c'}]"
                + (priorityClass == null ? "" : ",'priorityClassName':'" + priorityClass + "'") + "}}");
    }

    @Test
    void aLimitedResourceIsRefusedWithoutAQuotaCoveringIt() {
        StatusException e = assertThrows(StatusException.class, () -> plugin.validate(claim("gold")));
        assertEquals(403, e.code());
        assertEquals("persistentvolumeclaims \"data\" is forbidden: insufficient quota to consume: "
                + "gold.storageclass.storage.k8s.io/requests.storage", e.getMessage());

        quotas.add(Json.obj("{'metadata':{'name':'q'},'spec':{'hard':{'requests.storage':'10Gi'}},"
                + "'status':{'hard':{'requests.storage':'10Gi'},'used':{'requests.storage':'0'}}}"));
        assertThrows(StatusException.class, () -> plugin.validate(claim("gold")), "a quota of other resources covers nothing");

        quotas.set(0, Json.obj("{'metadata':{'name':'q'},'spec':{'hard':{'gold.storageclass.storage.k8s.io/requests.storage':'10Gi'}},"
                + "'status':{'hard':{'gold.storageclass.storage.k8s.io/requests.storage':'10Gi'},"
                + "'used':{'gold.storageclass.storage.k8s.io/requests.storage':'0'}}}"));
        assertDoesNotThrow(() -> plugin.validate(claim("gold")));
    }

    @Test
    void whatIsNotLimitedNeedsNoQuota() {
        assertDoesNotThrow(() -> plugin.validate(create(CLAIMS, "PersistentVolumeClaim", "data",
                "{'metadata':{'name':'data'},'spec':{'resources':{'requests':{'storage':'1Gi'}}}}")), "a claim of no class");
        assertDoesNotThrow(() -> plugin.validate(pod(null)));
        assertDoesNotThrow(() -> plugin.validate(pod("low")));
    }

    @Test
    void aPodWithinALimitedScopeNeedsAQuotaOfThatScope() {
        StatusException e = assertThrows(StatusException.class, () -> plugin.validate(pod("cluster-services")));
        assertEquals(500, e.code());
        assertEquals("insufficient quota to match these scopes: [{PriorityClass In [cluster-services]}]", e.getMessage());

        quotas.add(Json.obj("{'metadata':{'name':'q'},'spec':{'hard':{'pods':'10'},'scopeSelector':{'matchExpressions':"
                + "[{'scopeName':'PriorityClass','operator':'In','values':['cluster-services']}]}},"
                + "'status':{'hard':{'pods':'10'},'used':{'pods':'0'}}}"));
        assertDoesNotThrow(() -> plugin.validate(pod("cluster-services")));
    }

    @Test
    void theConfigurationIsValidatedAsKubeDoes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ResourceQuotaConfiguration.of(
                Json.obj("{'apiVersion':'resourcequota.admission.k8s.io/v1beta1','kind':'Configuration',"
                        + "'limitedResources':[{'matchContains':['x']}]}")));
        assertEquals("limitedResources[0].resource: Required value", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ResourceQuotaConfiguration.of(
                Json.obj("{'apiVersion':'v1','kind':'PodSecurityConfiguration'}")));
    }
}
