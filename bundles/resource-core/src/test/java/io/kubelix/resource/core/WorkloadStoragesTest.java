package io.kubelix.resource.core;

import io.kubelix.api.registry.APIGroupInfo;
import io.kubelix.api.registry.NamedCreater;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.registry.TableColumn;
import io.kubelix.api.schema.GroupVersion;
import io.kubelix.api.schema.ResourceSchema;
import io.kubelix.resource.core.node.NodeStrategy;
import io.kubelix.resource.core.pod.PodEvictionREST;
import io.kubelix.resource.core.pod.PodStatusStrategy;
import io.kubelix.resource.core.replicationcontroller.ReplicationControllerStrategy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;

import static io.kubelix.resource.core.testing.Json.obj;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What resource-core serves of core/v1's workloads: pods, podtemplates, replicationcontrollers, nodes. */
class WorkloadStoragesTest {
    private final CoreRESTStorageProvider provider = new CoreRESTStorageProvider(Executors.newSingleThreadScheduledExecutor());
    private final CoreRESTStorageProviderTest.RecordingOptionsGetter getter = new CoreRESTStorageProviderTest.RecordingOptionsGetter();

    @AfterEach
    void deactivate() {
        provider.deactivate();
    }

    @Test
    void servesPodsWithTheirSubresourcesAndTheOtherWorkloads() {
        APIGroupInfo info = provider.newRESTStorage(getter);
        Map<String, RESTStorage> v1 = info.versionedResourcesStorageMap().get("v1");
        for (String r : List.of("pods", "pods/status", "pods/binding", "pods/eviction", "podtemplates",
                "replicationcontrollers", "replicationcontrollers/status", "replicationcontrollers/scale", "nodes",
                "nodes/status")) {
            assertTrue(v1.containsKey(r), r);
        }
        assertInstanceOf(NamedCreater.class, v1.get("pods/binding"));
        assertEquals("Binding", v1.get("pods/binding").kind());
        assertEquals("io.k8s.api.core.v1.Binding", v1.get("pods/binding").schema().name());
        PodEvictionREST eviction = (PodEvictionREST) v1.get("pods/eviction");
        assertEquals("policy/v1", eviction.groupVersionKind(new GroupVersion("", "v1")).groupVersion().apiVersion());
        assertEquals(".spec.selector", getter.scales.get("replicationcontrollers").labelSelectorPath());
        assertInstanceOf(PodStatusStrategy.class, getter.statusStrategies.get("pods").get(0));
        assertInstanceOf(ReplicationControllerStrategy.Status.class, getter.statusStrategies.get("replicationcontrollers").get(0));
        assertInstanceOf(NodeStrategy.Status.class, getter.statusStrategies.get("nodes").get(0));
    }

    @Test
    void shortNamesCategoriesScopeAndSchemas() {
        provider.newRESTStorage(getter);
        StoreSpec pods = getter.stores.get("pods").spec;
        assertEquals(List.of("po"), pods.shortNames());
        assertEquals(List.of("all"), pods.categories());
        assertTrue(pods.namespaced());
        StoreSpec rcs = getter.stores.get("replicationcontrollers").spec;
        assertEquals(List.of("rc"), rcs.shortNames());
        assertEquals(List.of("all"), rcs.categories());
        assertTrue(rcs.generation());
        StoreSpec nodes = getter.stores.get("nodes").spec;
        assertEquals(List.of("no"), nodes.shortNames());
        assertFalse(nodes.namespaced());
        assertTrue(getter.stores.get("podtemplates").spec.categories().isEmpty());
        Map<String, String> kinds = Map.of("pods", "Pod", "podtemplates", "PodTemplate",
                "replicationcontrollers", "ReplicationController", "nodes", "Node");
        kinds.forEach((resource, kind) -> {
            ResourceSchema schema = getter.stores.get(resource).spec.schema();
            assertEquals("io.k8s.api.core.v1." + kind, schema.name());
        });
        ResourceSchema pod = pods.schema();
        assertEquals("name", pod.definitions().get("io.k8s.api.core.v1.PodSpec").path("properties").path("containers")
                .path("x-kubernetes-patch-merge-key").asText(), "kubectl apply merges containers on their names");
    }

    @Test
    void podFieldSelectorsAreKubesWithSpecNodeNameIndexed() {
        StoreSpec spec = spec("pods");
        assertEquals(java.util.Set.of("spec.nodeName", "spec.restartPolicy", "spec.schedulerName", "spec.serviceAccountName",
                "spec.hostNetwork", "status.phase", "status.podIP", "status.nominatedNodeName"), spec.selectableFields().keySet());
        assertEquals("spec.nodeName", spec.indexedField());
        var pod = obj("{'spec':{'nodeName':'n1','hostNetwork':true,'restartPolicy':'Never'},"
                + "'status':{'phase':'Running','podIPs':[{'ip':'10.0.0.5'},{'ip':'fd00::5'}],'podIP':'10.0.0.5'}}");
        assertEquals("n1", spec.selectableFields().get("spec.nodeName").apply(pod));
        assertEquals("true", spec.selectableFields().get("spec.hostNetwork").apply(pod));
        assertEquals("false", spec.selectableFields().get("spec.hostNetwork").apply(obj("{'spec':{}}")));
        assertEquals("Running", spec.selectableFields().get("status.phase").apply(pod));
        assertEquals("10.0.0.5", spec.selectableFields().get("status.podIP").apply(pod));
        assertEquals("", spec.selectableFields().get("status.nominatedNodeName").apply(pod));
    }

    @Test
    void nodeAndReplicationControllerFieldSelectors() {
        StoreSpec nodes = spec("nodes");
        assertEquals("true", nodes.selectableFields().get("spec.unschedulable").apply(obj("{'spec':{'unschedulable':true}}")));
        assertEquals("false", nodes.selectableFields().get("spec.unschedulable").apply(obj("{'spec':{}}")));
        StoreSpec rcs = spec("replicationcontrollers");
        assertEquals("3", rcs.selectableFields().get("status.replicas").apply(obj("{'status':{'replicas':3}}")));
    }

    @Test
    void tableHeaders() {
        assertEquals(List.of("Name", "Ready", "Status", "Restarts", "Age", "IP", "Node", "Nominated Node", "Readiness Gates"),
                headers(spec("pods")));
        assertEquals(List.of("Name", "Desired", "Current", "Ready", "Age", "Containers", "Images", "Selector"),
                headers(spec("replicationcontrollers")));
        assertEquals(List.of("Name", "Status", "Roles", "Age", "Version", "Internal-IP", "External-IP", "OS-Image",
                "Kernel-Version", "Container-Runtime"), headers(spec("nodes")));
        assertEquals(List.of("Name", "Containers", "Images", "Pod Labels"), headers(spec("podtemplates")));
        assertEquals(List.of(0, 0, 0, 0, 0, 1, 1, 1, 1),
                spec("pods").tableColumns().stream().map(TableColumn::priority).toList());
    }

    /** The spec of a resource's Store, as the provider builds it. */
    private StoreSpec spec(String resource) {
        if (getter.stores.isEmpty()) {
            provider.newRESTStorage(getter);
        }
        return getter.stores.get(resource).spec;
    }

    private static List<String> headers(StoreSpec spec) {
        return spec.tableColumns().stream().map(TableColumn::name).toList();
    }
}
