package io.kubelix.resource.core.namespace;

import io.kubelix.api.registry.NameValidation;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.registry.TableColumn;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.resource.core.common.CoreSchemas;

/**
 * The Store of namespaces, as {@link io.kubelix.resource.core.CoreRESTStorageProvider} serves it
 * (with {@code status} from {@link NamespaceStatusStrategy} and {@code finalize} from
 * {@link NamespaceFinalizeStrategy}).
 */
public final class NamespaceSpecs {
    public static final GroupResource NAMESPACES = GroupResource.of("", "namespaces");

    private NamespaceSpecs() {
    }

    public static StoreSpec namespaceSpec() {
        return StoreSpec.builder(NAMESPACES, "Namespace")
                .schema(CoreSchemas.v1("Namespace"))
                .namespaced(false)
                .shortNames("ns")
                .nameValidation(NameValidation.DNS1123_LABEL)
                .strategy(new NamespaceStrategy())
                .deleteStrategy(new NamespaceDeleteStrategy())
                .tableColumns(NamespacePrinters.namespaceColumns().toArray(TableColumn[]::new))
                .selectableField("status.phase", o -> o.path("status").path("phase").asText(""))
                .build();
    }
}
