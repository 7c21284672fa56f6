package io.kubelix.resource.core.serviceaccount;

import io.kubelix.api.registry.NameValidation;
import io.kubelix.api.registry.RESTDeleteStrategy;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.registry.TableColumn;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.resource.core.common.CoreSchemas;

/**
 * The Store of service accounts, as {@link io.kubelix.resource.core.CoreRESTStorageProvider} serves
 * it (with {@code token} from {@link ServiceAccountTokenREST}).
 */
public final class ServiceAccountSpecs {
    public static final GroupResource SERVICE_ACCOUNTS = GroupResource.of("", "serviceaccounts");

    private ServiceAccountSpecs() {
    }

    public static StoreSpec serviceAccountSpec() {
        return StoreSpec.builder(SERVICE_ACCOUNTS, "ServiceAccount")
                .schema(CoreSchemas.v1("ServiceAccount"))
                .namespaced(true)
                .shortNames("sa")
                .nameValidation(NameValidation.DNS1123_SUBDOMAIN)
                .strategy(new ServiceAccountStrategy())
                .deleteStrategy(RESTDeleteStrategy.returningDeletedObject())
                .tableColumns(ServiceAccountPrinters.serviceAccountColumns().toArray(TableColumn[]::new))
                .build();
    }
}
