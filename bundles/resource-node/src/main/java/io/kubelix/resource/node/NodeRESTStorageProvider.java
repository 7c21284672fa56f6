package io.kubelix.resource.node;

import io.kubelix.api.registry.APIGroupInfo;
import io.kubelix.api.registry.NameValidation;
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
 * The node.k8s.io group's RESTStorageProvider: {@code /apis/node.k8s.io/v1} runtimeclasses
 * (cluster-scoped). There is no kubelet: a RuntimeClass is stored and served, and no pod is run
 * with its handler.
 */
@Component(service = RESTStorageProvider.class)
public final class NodeRESTStorageProvider implements RESTStorageProvider {
    static final String GROUP = "node.k8s.io";
    static final String VERSION = "v1";
    static final GroupResource RUNTIME_CLASSES = GroupResource.of(GROUP, "runtimeclasses");

    private static final Logger LOG = LoggerFactory.getLogger(NodeRESTStorageProvider.class);

    @Override
    public String groupName() {
        return GROUP;
    }

    @Override
    public APIGroupInfo newRESTStorage(RESTOptionsGetter getter) {
        Map<String, RESTStorage> v1 = Map.of(RUNTIME_CLASSES.resource(), getter.newStore(runtimeClassSpec()));
        LOG.info("built node.k8s.io/v1 storage: [runtimeclasses]");
        return new APIGroupInfo(GROUP, List.of(VERSION), Map.of(VERSION, v1));
    }

    static StoreSpec runtimeClassSpec() {
        return StoreSpec.builder(RUNTIME_CLASSES, "RuntimeClass")
                .namespaced(false)
                .schema(ResourceSchema.load(NodeRESTStorageProvider.class, "/openapi/schemas.json",
                        "io.k8s.api.node.v1.RuntimeClass"))
                .nameValidation(NameValidation.DNS1123_SUBDOMAIN)
                .strategy(new RuntimeClassStrategy())
                .tableColumns(runtimeClassColumns().toArray(TableColumn[]::new))
                .build();
    }

    /** kube's RuntimeClass columns: NAME, HANDLER, AGE. */
    static List<TableColumn> runtimeClassColumns() {
        return List.of(TableColumn.nameColumn(),
                new TableColumn("Handler", "string", "", "The underlying runtime and configuration that pods of "
                        + "this class run with.", 0, o -> o.path("handler").asText("")),
                TableColumn.ageColumn());
    }
}
