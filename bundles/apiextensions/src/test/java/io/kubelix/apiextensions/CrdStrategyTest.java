package io.kubelix.apiextensions;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.request.RequestContext;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** kube's CRD strategy and v1 defaults: the server's status, stored versions, and the cleanup finalizer on delete. */
class CrdStrategyTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final RequestContext CTX = RequestContext.system("");

    private static ObjectNode crd(String versions) throws Exception {
        return (ObjectNode) JSON.readTree(("{'metadata':{'name':'crontabs.stable.example.com'},'spec':{'group':'stable.example.com',"
                + "'scope':'Namespaced','names':{'plural':'crontabs','kind':'CronTab'},'versions':" + versions + "},"
                + "'status':{'storedVersions':['v9'],'conditions':[{'type':'Established','status':'True'}]}}").replace('\'', '"'));
    }

    @Test
    void createDefaultsNamesAndConversionAndStartsTheStatusFromTheStorageVersion() throws Exception {
        ObjectNode crd = crd("[{'name':'v1','served':true,'storage':true}]");
        new CrdStrategy().prepareForCreate(CTX, crd);
        assertEquals("crontab", crd.path("spec").path("names").path("singular").asText());
        assertEquals("CronTabList", crd.path("spec").path("names").path("listKind").asText());
        assertEquals("None", crd.path("spec").path("conversion").path("strategy").asText());
        assertEquals(JSON.readTree("{\"storedVersions\":[\"v1\"]}"), crd.path("status"));
    }

    @Test
    void updatesKeepTheStatusAndRecordEveryStorageVersion() throws Exception {
        ObjectNode old = crd("[{'name':'v1','served':true,'storage':true}]");
        old.with("status").set("storedVersions", JSON.readTree("[\"v1\"]"));
        ObjectNode crd = crd("[{'name':'v1','served':true,'storage':false},{'name':'v2','served':true,'storage':true}]");
        crd.remove("status");
        new CrdStrategy().prepareForUpdate(CTX, crd, old);
        assertEquals("[\"v1\",\"v2\"]", crd.path("status").path("storedVersions").toString());
        assertEquals("Established", crd.path("status").path("conditions").path(0).path("type").asText());
    }

    @Test
    void aDeletedCrdGetsTheCleanupFinalizerAndTurnsTerminating() throws Exception {
        CrdStrategy strategy = new CrdStrategy();
        ObjectNode crd = crd("[{'name':'v1','served':true,'storage':true}]");
        assertTrue(strategy.hasPendingFinalizers(crd), "never deleted at once");
        strategy.prepareForDeletion(crd);
        assertEquals("[\"" + Crds.CLEANUP_FINALIZER + "\"]", crd.path("metadata").path("finalizers").toString());
        assertEquals("InstanceDeletionPending", Crds.condition(crd, Crds.TERMINATING).path("reason").asText());
        ((ObjectNode) crd.get("metadata")).put("deletionTimestamp", "2026-01-01T00:00:00Z");
        assertFalse(strategy.hasPendingFinalizers(crd), "goes once the finalizer is removed");
    }
}
