package io.kubelix.resource.core.service;

import io.kubelix.api.informer.SharedIndexInformer;
import io.kubelix.api.registry.NameValidation;
import io.kubelix.api.registry.RESTDeleteStrategy;
import io.kubelix.api.registry.RESTOptionsGetter;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.StandardStorage;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.registry.TableColumn;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.resource.core.common.CoreSchemas;

import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The Stores of services (with {@code status}, the allocators and their repair) and endpoints, as
 * {@link io.kubelix.resource.core.CoreRESTStorageProvider} serves them.
 */
public final class ServiceSpecs {
    static final GroupResource SERVICES = GroupResource.of("", "services");
    /** What the services' informer follows. */
    public static final GroupVersionResource SERVICES_V1 = new GroupVersionResource("", "v1", "services");
    static final GroupResource ENDPOINTS = GroupResource.of("", "endpoints");

    private ServiceSpecs() {
    }

    /**
     * Adds services, {@code services/status} and endpoints to {@code v1}, and
     * starts the services' allocation repair on {@code executor}, reading the services from their
     * informer (stopped with the services' Store; none without an informer).
     */
    public static void install(Map<String, RESTStorage> v1, RESTOptionsGetter getter, ServiceNetworkConfig network,
                        SharedIndexInformer servicesInformer, ScheduledExecutorService executor) {
        ServiceAllocators allocators = new ServiceAllocators(getter.storage(ServiceAllocators.RANGES_PREFIX),
                network.cidr(), network.nodePorts());
        StandardStorage services = getter.newStore(serviceSpec(network.cidr().family()));
        ServiceRepair repair = new ServiceRepair(servicesInformer, allocators);
        v1.put(SERVICES.resource(), new ServiceREST(services, allocators, repair));
        v1.put(SERVICES.resource() + "/status", getter.newStatusStore(services, new ServiceStatusStrategy()));
        v1.put(ENDPOINTS.resource(), getter.newStore(endpointsSpec()));
        repair.start(executor);
    }

    static StoreSpec serviceSpec(String clusterFamily) {
        return StoreSpec.builder(SERVICES, "Service")
                .schema(CoreSchemas.v1("Service"))
                .namespaced(true)
                .shortNames("svc")
                .categories("all")
                .nameValidation(NameValidation.DNS1123_LABEL)
                .strategy(new ServiceStrategy(clusterFamily))
                .deleteStrategy(RESTDeleteStrategy.returningDeletedObject())
                .tableColumns(ServicePrinters.serviceColumns().toArray(TableColumn[]::new))
                .build();
    }

    static StoreSpec endpointsSpec() {
        return StoreSpec.builder(ENDPOINTS, "Endpoints")
                .singularName("endpoints")
                .schema(CoreSchemas.v1("Endpoints"))
                .namespaced(true)
                .shortNames("ep")
                .nameValidation(NameValidation.DNS1123_SUBDOMAIN)
                .strategy(new EndpointsStrategy())
                .tableColumns(ServicePrinters.endpointsColumns().toArray(TableColumn[]::new))
                .build();
    }
}
