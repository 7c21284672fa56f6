package io.kubelix.resource.coordination;

import io.kubelix.api.registry.APIGroupInfo;
import io.kubelix.api.registry.RESTOptionsGetter;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.RESTStorageProvider;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.registry.TableColumn;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.schema.ResourceSchema;
import org.osgi.service.component.annotations.Component;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;

/**
 * The coordination.k8s.io group's RESTStorageProvider: {@code /apis/coordination.k8s.io/v1} leases,
 * namespaced, without a status subresource or a generation, as kube serves them.
 */
@Component(service = RESTStorageProvider.class)
public final class CoordinationRESTStorageProvider implements RESTStorageProvider {
    static final String GROUP = "coordination.k8s.io";
    static final String VERSION = "v1";
    static final GroupResource LEASES = GroupResource.of(GROUP, "leases");

    private static final Logger LOG = LoggerFactory.getLogger(CoordinationRESTStorageProvider.class);

    @Override
    public String groupName() {
        return GROUP;
    }

    @Override
    public APIGroupInfo newRESTStorage(RESTOptionsGetter getter) {
        Map<String, RESTStorage> v1 = Map.of("leases", getter.newStore(leaseSpec()));
        LOG.info("built coordination.k8s.io/v1 storage: {}", v1.keySet());
        return new APIGroupInfo(GROUP, List.of(VERSION), Map.of(VERSION, v1));
    }

    static StoreSpec leaseSpec() {
        return StoreSpec.builder(LEASES, "Lease")
                .namespaced(true)
                .schema(ResourceSchema.load(CoordinationRESTStorageProvider.class, "/openapi/schemas.json",
                        "io.k8s.api.coordination.v1.Lease"))
                .strategy(new LeaseStrategy())
                .tableColumns(leaseColumns().toArray(TableColumn[]::new))
                .build();
    }

    /** NAME, HOLDER (spec.holderIdentity, empty when unset), AGE. */
    static List<TableColumn> leaseColumns() {
        return List.of(TableColumn.nameColumn(),
                new TableColumn("Holder", "string", "", "holderIdentity contains the identity of the holder of a "
                        + "current lease. If Coordinated Leader Election is used, the holder identity must be equal to "
                        + "the elected LeaseCandidate.metadata.name field.", 0,
                        o -> o.path("spec").path("holderIdentity").asText("")),
                TableColumn.ageColumn());
    }
}
