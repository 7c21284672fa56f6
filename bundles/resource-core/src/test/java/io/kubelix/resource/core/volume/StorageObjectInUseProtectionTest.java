package io.kubelix.resource.core.volume;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.Operation;
import io.kubelix.api.registry.CreateOptions;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupVersionKind;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.testing.store.MapStore;
import io.kubelix.testing.informer.FakeInformerFactory;
import org.junit.jupiter.api.Test;

import static io.kubelix.resource.core.testing.Json.obj;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** kube's StorageObjectInUseProtection finalizers, and the controllers that remove them once nothing uses the object. */
class StorageObjectInUseProtectionTest {
    private static final String CLAIM = "{'metadata':{'name':'data','namespace':'team'},'spec':{'accessModes':"
            + "['ReadWriteOnce'],'resources':{'requests':{'storage':'1Gi'}}}}";

    private final FakeInformerFactory caches = new FakeInformerFactory();
    private final MapStore claims = new MapStore(VolumeSpecs.persistentVolumeClaimSpec(PersistentVolumeStrategy.claims()));
    private final MapStore volumes = new MapStore(VolumeSpecs.persistentVolumeSpec(PersistentVolumeStrategy.volumes()));
    private final StorageProtectionController controller = new StorageProtectionController(claims, volumes, caches);

    /** Stores the object as its Store would, then marks it deleted with these finalizers, in the Store and the cache. */
    private ObjectNode deleted(MapStore store, GroupVersionResource resource, String key, String json, String... finalizers) {
        ObjectNode obj = store.create(RequestContext.system("team"), obj(json), CreateOptions.DEFAULT);
        ObjectNode stored = store.objects.get(obj.path("metadata").path("name").asText());
        stored.with("metadata").put("deletionTimestamp", "2026-01-01T00:00:00Z");
        com.fasterxml.jackson.databind.node.ArrayNode list = stored.with("metadata").putArray("finalizers");
        for (String f : finalizers) {
            list.add(f);
        }
        caches.forResource(resource).put(key, stored);
        return stored;
    }

    private static ObjectNode created(String resource, String json) {
        ObjectNode obj = obj(json);
        new StorageObjectInUseProtection().admit(new AdmissionAttributes(Operation.CREATE, new GroupVersionKind("", "v1", "X"),
                new GroupVersionResource("", "v1", resource), "", "team", "x", obj, null, false, RequestContext.system("team")));
        return obj;
    }

    @Test
    void newClaimsAndVolumesGetTheirProtectionFinalizerOnce() {
        assertEquals("[\"kubernetes.io/pvc-protection\"]", created("persistentvolumeclaims", "{'metadata':{}}")
                .path("metadata").path("finalizers").toString());
        assertEquals("[\"a\",\"kubernetes.io/pv-protection\"]", created("persistentvolumes",
                "{'metadata':{'finalizers':['a']}}").path("metadata").path("finalizers").toString());
        assertEquals("[\"kubernetes.io/pvc-protection\"]", created("persistentvolumeclaims",
                "{'metadata':{'finalizers':['kubernetes.io/pvc-protection']}}").path("metadata").path("finalizers").toString());
        assertEquals("{}", created("configmaps", "{'metadata':{}}").path("metadata").toString());
    }

    @Test
    void aDeletedClaimKeepsItsFinalizerWhileAScheduledPodUsesIt() {
        deleted(claims, StorageProtectionController.CLAIMS, "team/data", CLAIM, "example.com/keep",
                "kubernetes.io/pvc-protection");
        ObjectNode pod = obj("{'metadata':{'name':'web','namespace':'team'},'spec':{'nodeName':'n1','volumes':[{'name':'v',"
                + "'persistentVolumeClaim':{'claimName':'data'}}]},'status':{'phase':'Running'}}");
        caches.forResource(StorageProtectionController.PODS).put("team/web", pod);

        controller.sync("pvc/team/data");
        assertEquals(2, claims.objects.get("data").path("metadata").path("finalizers").size(), "in use by a running pod");

        pod.with("status").put("phase", "Succeeded");
        controller.sync("pvc/team/data");
        assertEquals("[\"example.com/keep\"]", claims.objects.get("data").path("metadata").path("finalizers").toString());
    }

    @Test
    void aDeletedVolumeKeepsItsFinalizerWhileBound() {
        ObjectNode volume = deleted(volumes, StorageProtectionController.VOLUMES, "pv1", "{'metadata':{'name':'pv1'},"
                + "'spec':{'capacity':{'storage':'1Gi'},'accessModes':['ReadWriteOnce'],'hostPath':{'path':'/data'}}}",
                "kubernetes.io/pv-protection");
        volume.with("status").put("phase", "Bound");

        controller.sync("pv/pv1");
        assertEquals(1, volumes.objects.get("pv1").path("metadata").path("finalizers").size());

        volume.with("status").put("phase", "Released");
        controller.sync("pv/pv1");
        assertEquals(0, volumes.objects.get("pv1").path("metadata").path("finalizers").size());
    }

    @Test
    void aPodsClaimsAreItsClaimVolumesAndEphemeralOnes() {
        assertEquals(java.util.List.of("data", "web-scratch"), StorageProtectionController.claimNames(obj(
                "{'metadata':{'name':'web'},'spec':{'volumes':[{'name':'a','persistentVolumeClaim':{'claimName':'data'}},"
                        + "{'name':'scratch','ephemeral':{}},{'name':'c','emptyDir':{}}]}}")));
    }
}
