package io.kubelix.resource.core.volume;

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
 * The Stores of persistent volumes and claims, each with {@code status}, as
 * {@link io.kubelix.resource.core.CoreRESTStorageProvider} serves them.
 */
public final class VolumeSpecs {
    static final GroupResource PERSISTENT_VOLUMES = GroupResource.of("", "persistentvolumes");
    static final GroupResource PERSISTENT_VOLUME_CLAIMS = GroupResource.of("", "persistentvolumeclaims");

    private VolumeSpecs() {
    }

    public static void install(Map<String, RESTStorage> v1, RESTOptionsGetter getter) {
        PersistentVolumeStrategy volumeStrategy = PersistentVolumeStrategy.volumes();
        StandardStorage volumes = getter.newStore(persistentVolumeSpec(volumeStrategy));
        v1.put(PERSISTENT_VOLUMES.resource(), volumes);
        v1.put(PERSISTENT_VOLUMES.resource() + "/status", getter.newStatusStore(volumes, volumeStrategy.statusStrategy()));
        PersistentVolumeStrategy claimStrategy = PersistentVolumeStrategy.claims();
        StandardStorage claims = getter.newStore(persistentVolumeClaimSpec(claimStrategy));
        v1.put(PERSISTENT_VOLUME_CLAIMS.resource(), claims);
        v1.put(PERSISTENT_VOLUME_CLAIMS.resource() + "/status", getter.newStatusStore(claims, claimStrategy.statusStrategy()));
    }

    static StoreSpec persistentVolumeSpec(PersistentVolumeStrategy strategy) {
        return StoreSpec.builder(PERSISTENT_VOLUMES, "PersistentVolume")
                .schema(CoreSchemas.v1("PersistentVolume"))
                .namespaced(false)
                .shortNames("pv")
                .nameValidation(NameValidation.DNS1123_SUBDOMAIN)
                .strategy(strategy)
                .deleteStrategy(RESTDeleteStrategy.returningDeletedObject())
                .tableColumns(VolumePrinters.volumeColumns().toArray(TableColumn[]::new))
                .build();
    }

    static StoreSpec persistentVolumeClaimSpec(PersistentVolumeStrategy strategy) {
        return StoreSpec.builder(PERSISTENT_VOLUME_CLAIMS, "PersistentVolumeClaim")
                .schema(CoreSchemas.v1("PersistentVolumeClaim"))
                .namespaced(true)
                .shortNames("pvc")
                .nameValidation(NameValidation.DNS1123_SUBDOMAIN)
                .strategy(strategy)
                .deleteStrategy(RESTDeleteStrategy.returningDeletedObject())
                .tableColumns(VolumePrinters.claimColumns().toArray(TableColumn[]::new))
                .build();
    }
}
