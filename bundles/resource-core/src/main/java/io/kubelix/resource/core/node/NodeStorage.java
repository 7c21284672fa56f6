package io.kubelix.resource.core.node;

import io.kubelix.api.registry.NameValidation;
import io.kubelix.api.registry.RESTOptionsGetter;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.StandardStorage;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.registry.TableColumn;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.resource.core.common.CoreSchemas;
import io.kubelix.resource.core.common.Nodes;

import java.util.Map;

/**
 * {@code nodes} with {@code nodes/status}, cluster-scoped, short name {@code no}, with kube's
 * field selector {@code spec.unschedulable}.
 */
public final class NodeStorage {
    static final GroupResource NODES = GroupResource.of("", "nodes");

    private NodeStorage() {
    }

    public static void install(RESTOptionsGetter getter, Map<String, RESTStorage> v1) {
        StandardStorage nodes = getter.newStore(spec());
        v1.put("nodes", nodes);
        v1.put("nodes/status", getter.newStatusStore(nodes, new NodeStrategy.Status()));
    }

    public static StoreSpec spec() {
        return StoreSpec.builder(NODES, "Node")
                .schema(CoreSchemas.v1("Node"))
                .namespaced(false)
                .shortNames("no")
                .nameValidation(NameValidation.DNS1123_SUBDOMAIN)
                .strategy(new NodeStrategy())
                .tableColumns(NodePrinters.nodeColumns().toArray(TableColumn[]::new))
                .selectableField("spec.unschedulable", o -> Boolean.toString(Nodes.isTrue(o.path("spec"), "unschedulable")))
                .build();
    }
}
