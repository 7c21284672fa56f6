package io.kubelix.resource.core.config;

import io.kubelix.api.registry.NameValidation;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.registry.TableColumn;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.resource.core.common.CoreSchemas;

/** The Stores of configmaps and secrets, as {@link io.kubelix.resource.core.CoreRESTStorageProvider} serves them. */
public final class ConfigSpecs {
    public static final GroupResource CONFIGMAPS = GroupResource.of("", "configmaps");
    public static final GroupResource SECRETS = GroupResource.of("", "secrets");

    private ConfigSpecs() {
    }

    public static StoreSpec configMapSpec() {
        return StoreSpec.builder(CONFIGMAPS, "ConfigMap")
                .schema(CoreSchemas.v1("ConfigMap"))
                .namespaced(true)
                .shortNames("cm")
                .nameValidation(NameValidation.DNS1123_SUBDOMAIN)
                .strategy(new ConfigMapStrategy())
                .tableColumns(ConfigPrinters.configMapColumns().toArray(TableColumn[]::new))
                .build();
    }

    public static StoreSpec secretSpec() {
        return StoreSpec.builder(SECRETS, "Secret")
                .schema(CoreSchemas.v1("Secret"))
                .namespaced(true)
                .nameValidation(NameValidation.DNS1123_SUBDOMAIN)
                .strategy(new SecretStrategy())
                .tableColumns(ConfigPrinters.secretColumns().toArray(TableColumn[]::new))
                .selectableField("type", o -> o.path("type").asText(""))
                .build();
    }
}
