package io.kubelix.resource.core.quota;

import io.kubelix.api.registry.NameValidation;
import io.kubelix.api.registry.RESTDeleteStrategy;
import io.kubelix.api.registry.RESTOptionsGetter;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.StandardStorage;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.registry.TableColumn;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.resource.core.common.CoreSchemas;

import java.util.Map;

/**
 * The Stores of resource quotas (with {@code status}) and limit ranges, as
 * {@link io.kubelix.resource.core.CoreRESTStorageProvider} serves them.
 */
public final class QuotaSpecs {
    public static final GroupResource RESOURCE_QUOTAS = GroupResource.of("", "resourcequotas");
    static final GroupResource LIMIT_RANGES = GroupResource.of("", "limitranges");

    private QuotaSpecs() {
    }

    public static void install(Map<String, RESTStorage> v1, RESTOptionsGetter getter) {
        StandardStorage quotas = getter.newStore(resourceQuotaSpec());
        v1.put(RESOURCE_QUOTAS.resource(), quotas);
        v1.put(RESOURCE_QUOTAS.resource() + "/status", getter.newStatusStore(quotas, ResourceQuotaStrategy.statusStrategy()));
        v1.put(LIMIT_RANGES.resource(), getter.newStore(limitRangeSpec()));
    }

    static StoreSpec resourceQuotaSpec() {
        return StoreSpec.builder(RESOURCE_QUOTAS, "ResourceQuota")
                .schema(CoreSchemas.v1("ResourceQuota"))
                .namespaced(true)
                .shortNames("quota")
                .nameValidation(NameValidation.DNS1123_SUBDOMAIN)
                .strategy(new ResourceQuotaStrategy())
                .deleteStrategy(RESTDeleteStrategy.returningDeletedObject())
                .tableColumns(QuotaPrinters.resourceQuotaColumns().toArray(TableColumn[]::new))
                .build();
    }

    static StoreSpec limitRangeSpec() {
        return StoreSpec.builder(LIMIT_RANGES, "LimitRange")
                .schema(CoreSchemas.v1("LimitRange"))
                .namespaced(true)
                .shortNames("limits")
                .nameValidation(NameValidation.DNS1123_SUBDOMAIN)
                .strategy(new LimitRangeStrategy())
                .tableColumns(QuotaPrinters.limitRangeColumns().toArray(TableColumn[]::new))
                .build();
    }
}
