package io.kubelix.resource.core;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.api.registry.APIGroupInfo;
import io.kubelix.api.registry.RESTOptionsGetter;
import io.kubelix.api.registry.ScaleStorage;
import io.kubelix.api.registry.ScaleSubresource;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StatusStorage;
import io.kubelix.api.registry.UpdateOptions;
import io.kubelix.api.registry.UpdateResult;
import io.kubelix.api.registry.UpdatedObjectInfo;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.registry.StandardStorage;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.registry.TableColumn;
import io.kubelix.api.schema.ResourceSchema;
import io.kubelix.api.storage.StorageInterface;
import io.kubelix.resource.core.namespace.NamespaceFinalizeStrategy;
import io.kubelix.resource.core.namespace.NamespaceStatusStrategy;
import io.kubelix.resource.core.service.ServiceREST;
import io.kubelix.resource.core.testing.Json;
import io.kubelix.resource.core.testing.MemoryRanges;
import io.kubelix.testing.store.MapStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CoreRESTStorageProviderTest {

    /** Records each StoreSpec and answers with a MapStore for it. */
    static final class RecordingOptionsGetter implements RESTOptionsGetter {
        final Map<String, MapStore> stores = new LinkedHashMap<>();
        final MemoryRanges ranges = new MemoryRanges();

        @Override
        public StandardStorage newStore(StoreSpec spec) {
            MapStore store = new MapStore(spec);
            stores.put(spec.groupResource().resource(), store);
            return store;
        }

        @Override
        public StorageInterface storage(String resourcePrefix) {
            return ranges.storage(resourcePrefix);
        }

        @Override
        public StatusStorage newStatusStore(StandardStorage store, RESTUpdateStrategy statusStrategy) {
            statusStrategies.computeIfAbsent(((MapStore) store).spec.groupResource().resource(), r -> new ArrayList<>())
                    .add(statusStrategy);
            return new StatusStorage() {
                @Override
                public ObjectNode get(RequestContext ctx, String name, String resourceVersion) {
                    return store.get(ctx, name, resourceVersion);
                }

                @Override
                public UpdateResult update(RequestContext ctx, String name, UpdatedObjectInfo objInfo,
                                           UpdateOptions options) {
                    throw new UnsupportedOperationException();
                }

                @Override
                public String kind() {
                    return store.kind();
                }

                @Override
                public boolean namespaced() {
                    return store.namespaced();
                }

                @Override
                public String singularName() {
                    return "";
                }
            };
        }

        final Map<String, List<RESTUpdateStrategy>> statusStrategies = new LinkedHashMap<>();
        final Map<String, ScaleSubresource> scales = new LinkedHashMap<>();

        @Override
        public ScaleStorage newScaleStore(StandardStorage store, ScaleSubresource scale) {
            scales.put(((MapStore) store).spec.groupResource().resource(), scale);
            return new ScaleStorage() {
                @Override
                public ObjectNode get(RequestContext ctx, String name, String resourceVersion) {
                    throw new UnsupportedOperationException();
                }

                @Override
                public UpdateResult update(RequestContext ctx, String name, UpdatedObjectInfo objInfo,
                                           UpdateOptions options) {
                    throw new UnsupportedOperationException();
                }

                @Override
                public io.kubelix.api.schema.GroupVersionKind groupVersionKind(io.kubelix.api.schema.GroupVersion gv) {
                    return new io.kubelix.api.schema.GroupVersionKind("autoscaling", "v1", "Scale");
                }

                @Override
                public String kind() {
                    return "Scale";
                }

                @Override
                public boolean namespaced() {
                    return store.namespaced();
                }

                @Override
                public String singularName() {
                    return "";
                }
            };
        }
    }

    private final CoreRESTStorageProvider provider =
            new CoreRESTStorageProvider(Executors.newSingleThreadScheduledExecutor());
    private final RecordingOptionsGetter getter = new RecordingOptionsGetter();

    @AfterEach
    void deactivate() {
        provider.deactivate();
        getter.ranges.close();
    }

    private static List<String> headers(StoreSpec spec) {
        return spec.tableColumns().stream().map(TableColumn::name).toList();
    }

    @Test
    void servesNamespacesConfigMapsSecretsAndEventsAtV1() {
        assertEquals("", provider.groupName());
        APIGroupInfo info = provider.newRESTStorage(getter);
        assertEquals("", info.groupName());
        assertEquals(List.of("v1"), info.prioritizedVersions());
        assertEquals(List.of("namespaces", "namespaces/status", "namespaces/finalize", "configmaps", "secrets", "events"),
                List.copyOf(info.versionedResourcesStorageMap().get("v1").keySet()).subList(0, 6));
        assertTrue(info.versionedResourcesStorageMap().get("v1").keySet().containsAll(List.of(
                "services", "services/status", "endpoints", "serviceaccounts", "persistentvolumes",
                "persistentvolumes/status", "persistentvolumeclaims", "persistentvolumeclaims/status",
                "resourcequotas", "resourcequotas/status", "limitranges")));
        assertInstanceOf(ServiceREST.class, info.versionedResourcesStorageMap().get("v1").get("services"),
                "services allocate cluster IPs and node ports around their Store");
        assertSame(getter.stores.get("configmaps"), info.versionedResourcesStorageMap().get("v1").get("configmaps"));
        List<RESTUpdateStrategy> subresources = getter.statusStrategies.get("namespaces");
        assertInstanceOf(NamespaceStatusStrategy.class, subresources.get(0),
                "namespaces/status shares the namespace Store, updating with the status strategy");
        assertInstanceOf(NamespaceFinalizeStrategy.class, subresources.get(1),
                "namespaces/finalize shares it too, updating spec.finalizers only");
    }

    @Test
    void everyKindCarriesItsGeneratedSchema() {
        provider.newRESTStorage(getter);
        Map<String, String> kinds = Map.ofEntries(Map.entry("namespaces", "Namespace"), Map.entry("configmaps", "ConfigMap"),
                Map.entry("secrets", "Secret"), Map.entry("events", "Event"), Map.entry("services", "Service"),
                Map.entry("endpoints", "Endpoints"), Map.entry("serviceaccounts", "ServiceAccount"),
                Map.entry("persistentvolumes", "PersistentVolume"), Map.entry("persistentvolumeclaims", "PersistentVolumeClaim"),
                Map.entry("resourcequotas", "ResourceQuota"), Map.entry("limitranges", "LimitRange"));
        kinds.forEach((resource, kind) -> {
            ResourceSchema schema = getter.stores.get(resource).spec.schema();
            assertEquals("io.k8s.api.core.v1." + kind, schema.name());
            assertTrue(schema.root().path("properties").has("metadata"), kind);
            assertTrue(schema.definitions().containsKey("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"), kind);
        });
        ResourceSchema ns = getter.stores.get("namespaces").spec.schema();
        assertEquals("atomic", ns.definitions().get("io.k8s.api.core.v1.NamespaceSpec").path("properties")
                .path("finalizers").path("x-kubernetes-list-type").asText());
        ResourceSchema events = getter.stores.get("events").spec.schema();
        assertTrue(events.definitions().containsKey("io.k8s.api.core.v1.ObjectReference"), "involvedObject's type");
        assertEquals("byte", getter.stores.get("secrets").spec.schema().root().path("properties").path("data")
                .path("additionalProperties").path("format").asText());
    }

    @Test
    void listerAnswers503UntilTheStoreIsBuiltThenReads() {
        StatusException e = assertThrows(StatusException.class, () -> provider.get("default", true));
        assertEquals(StatusReason.SERVICE_UNAVAILABLE, e.reason());
        assertEquals(503, e.code());

        provider.newRESTStorage(getter);
        MapStore namespaces = getter.stores.get("namespaces");
        namespaces.objects.put("team", Json.obj("{'metadata':{'name':'team'}}"));
        assertTrue(provider.get("team", false).isPresent());
        assertTrue(provider.get("missing", true).isEmpty());
        assertTrue(namespaces.gets.contains("team@0"));
        assertTrue(namespaces.gets.contains("missing@"));
    }
}
