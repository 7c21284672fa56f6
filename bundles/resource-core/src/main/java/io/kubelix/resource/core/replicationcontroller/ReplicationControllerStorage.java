package io.kubelix.resource.core.replicationcontroller;

import io.kubelix.api.registry.NameValidation;
import io.kubelix.api.registry.RESTOptionsGetter;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.ScaleSubresource;
import io.kubelix.api.registry.StandardStorage;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.registry.TableColumn;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.resource.core.common.CoreSchemas;

import java.util.Map;

/**
 * {@code replicationcontrollers} with {@code status} and {@code scale}, as kube's
 * replicationcontroller storage serves them: short name {@code rc}, category {@code all}, the
 * field selector {@code status.replicas}. There is no controller manager: the status is what the
 * status subresource was last given.
 */
public final class ReplicationControllerStorage {
    static final GroupResource REPLICATIONCONTROLLERS = GroupResource.of("", "replicationcontrollers");

    private ReplicationControllerStorage() {
    }

    public static void install(RESTOptionsGetter getter, Map<String, RESTStorage> v1) {
        StandardStorage rcs = getter.newStore(spec());
        v1.put("replicationcontrollers", rcs);
        v1.put("replicationcontrollers/status", getter.newStatusStore(rcs, new ReplicationControllerStrategy.Status()));
        // spec.selector is a map of labels; the Scale reports it as a selector string.
        v1.put("replicationcontrollers/scale", getter.newScaleStore(rcs,
                new ScaleSubresource(".spec.replicas", ".status.replicas", ".spec.selector")));
    }

    static StoreSpec spec() {
        return StoreSpec.builder(REPLICATIONCONTROLLERS, "ReplicationController")
                .schema(CoreSchemas.v1("ReplicationController"))
                .namespaced(true)
                .shortNames("rc")
                .categories("all")
                .nameValidation(NameValidation.DNS1123_SUBDOMAIN)
                .strategy(new ReplicationControllerStrategy())
                .generation(true)
                .tableColumns(ReplicationControllerPrinters.replicationControllerColumns().toArray(TableColumn[]::new))
                .selectableField("status.replicas", o -> Long.toString(o.path("status").path("replicas").asLong(0)))
                .build();
    }
}
