package io.kubelix.resource.flowcontrol;

import io.kubelix.api.registry.APIGroupInfo;
import io.kubelix.api.registry.NameValidation;
import io.kubelix.api.registry.RESTOptionsGetter;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.RESTStorageProvider;
import io.kubelix.api.registry.StandardStorage;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.registry.TableColumn;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.schema.ResourceSchema;
import org.osgi.service.component.annotations.Component;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The flowcontrol.apiserver.k8s.io group's RESTStorageProvider (kube's flowcontrol RESTStorageProvider):
 * {@code /apis/flowcontrol.apiserver.k8s.io/v1} flowschemas and prioritylevelconfigurations, both
 * cluster-scoped, each with {@code status}, with no short names or categories, as kube serves them.
 */
@Component(service = RESTStorageProvider.class)
public final class FlowcontrolRESTStorageProvider implements RESTStorageProvider {
    static final String GROUP = "flowcontrol.apiserver.k8s.io";
    static final String VERSION = "v1";
    static final GroupResource FLOW_SCHEMAS = GroupResource.of(GROUP, "flowschemas");
    static final GroupResource PRIORITY_LEVELS = GroupResource.of(GROUP, "prioritylevelconfigurations");

    private static final Logger LOG = LoggerFactory.getLogger(FlowcontrolRESTStorageProvider.class);

    @Override
    public String groupName() {
        return GROUP;
    }

    @Override
    public APIGroupInfo newRESTStorage(RESTOptionsGetter getter) {
        Map<String, RESTStorage> v1 = new LinkedHashMap<>();
        withStatus(getter, v1, flowSchemaSpec());
        withStatus(getter, v1, priorityLevelSpec());
        LOG.info("built {}/{} storage: {}", GROUP, VERSION, v1.keySet());
        return new APIGroupInfo(GROUP, List.of(VERSION), Map.of(VERSION, v1));
    }

    private static void withStatus(RESTOptionsGetter getter, Map<String, RESTStorage> v1, StoreSpec spec) {
        StandardStorage store = getter.newStore(spec);
        v1.put(spec.groupResource().resource(), store);
        v1.put(spec.groupResource().resource() + "/status", getter.newStatusStore(store, new FlowcontrolStatusStrategy()));
    }

    static StoreSpec flowSchemaSpec() {
        return spec(FLOW_SCHEMAS, "FlowSchema", FlowcontrolStrategy.flowSchema(), FlowcontrolPrinters.flowSchemaColumns());
    }

    static StoreSpec priorityLevelSpec() {
        return spec(PRIORITY_LEVELS, "PriorityLevelConfiguration", FlowcontrolStrategy.priorityLevel(),
                FlowcontrolPrinters.priorityLevelColumns());
    }

    /**
     * A cluster-scoped kind whose generation follows its spec, with its OpenAPI schema from
     * {@code openapi/schemas.json}, which the build generates from the Kubernetes Java client (the
     * {@code openapi-schemas} execution in this bundle's POM).
     */
    private static StoreSpec spec(GroupResource gr, String kind, FlowcontrolStrategy strategy, List<TableColumn> columns) {
        return StoreSpec.builder(gr, kind)
                .namespaced(false)
                .schema(ResourceSchema.load(FlowcontrolRESTStorageProvider.class, "/openapi/schemas.json",
                        "io.k8s.api.flowcontrol.v1." + kind))
                .nameValidation(NameValidation.DNS1123_SUBDOMAIN)
                .strategy(strategy)
                .generation(true)
                .tableColumns(columns.toArray(TableColumn[]::new))
                .build();
    }
}
