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

/** Quota admission of object counts, against a quota held in memory as its status Store would hold it. */
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
    });

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
        quota = quota("{'count/deployments.apps':'1'}", null);

        StatusException e = assertThrows(StatusException.class, () -> plugin.validate(create(DEPLOYMENTS, "web", false)));

        assertEquals("deployments.apps \"web\" is forbidden: status unknown for quota: q, resources: "
                + "count/deployments.apps", e.getMessage());
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
}
