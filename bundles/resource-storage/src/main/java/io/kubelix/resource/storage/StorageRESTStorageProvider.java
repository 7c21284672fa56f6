package io.kubelix.resource.storage;

import io.kubelix.api.registry.APIGroupInfo;
import io.kubelix.api.registry.NameValidation;
import io.kubelix.api.registry.RESTDeleteStrategy;
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
 * The storage.k8s.io group's RESTStorageProvider: {@code /apis/storage.k8s.io/v1} storageclasses
 * ({@code sc}), csidrivers, csinodes and volumeattachments (with {@code status}), all
 * cluster-scoped as in kube.
 */
@Component(service = RESTStorageProvider.class)
public final class StorageRESTStorageProvider implements RESTStorageProvider {
    static final String GROUP = "storage.k8s.io";
    static final String VERSION = "v1";
    static final GroupResource STORAGE_CLASSES = GroupResource.of(GROUP, "storageclasses");
    static final GroupResource CSI_DRIVERS = GroupResource.of(GROUP, "csidrivers");
    static final GroupResource CSI_NODES = GroupResource.of(GROUP, "csinodes");
    static final GroupResource VOLUME_ATTACHMENTS = GroupResource.of(GROUP, "volumeattachments");

    private static final Logger LOG = LoggerFactory.getLogger(StorageRESTStorageProvider.class);

    @Override
    public String groupName() {
        return GROUP;
    }

    @Override
    public APIGroupInfo newRESTStorage(RESTOptionsGetter getter) {
        Map<String, RESTStorage> v1 = new LinkedHashMap<>();
        v1.put(STORAGE_CLASSES.resource(), getter.newStore(storageClassSpec()));
        v1.put(CSI_DRIVERS.resource(), getter.newStore(csiDriverSpec()));
        v1.put(CSI_NODES.resource(), getter.newStore(csiNodeSpec()));
        StandardStorage attachments = getter.newStore(volumeAttachmentSpec());
        v1.put(VOLUME_ATTACHMENTS.resource(), attachments);
        v1.put(VOLUME_ATTACHMENTS.resource() + "/status",
                getter.newStatusStore(attachments, new VolumeAttachmentStatusStrategy()));
        LOG.info("built storage.k8s.io/v1 storage: {}", v1.keySet());
        return new APIGroupInfo(GROUP, List.of(VERSION), Map.of(VERSION, v1));
    }

    static StoreSpec storageClassSpec() {
        return clusterScoped(STORAGE_CLASSES, "StorageClass", StoragePrinters.storageClassColumns())
                .shortNames("sc")
                .strategy(new StorageClassStrategy())
                .build();
    }

    static StoreSpec csiDriverSpec() {
        return clusterScoped(CSI_DRIVERS, "CSIDriver", StoragePrinters.csiDriverColumns())
                .strategy(new CSIDriverStrategy())
                .build();
    }

    static StoreSpec csiNodeSpec() {
        return clusterScoped(CSI_NODES, "CSINode", StoragePrinters.csiNodeColumns())
                .strategy(new CSINodeStrategy())
                .build();
    }

    static StoreSpec volumeAttachmentSpec() {
        return clusterScoped(VOLUME_ATTACHMENTS, "VolumeAttachment", StoragePrinters.volumeAttachmentColumns())
                .strategy(new VolumeAttachmentStrategy())
                .build();
    }

    private static StoreSpec.Builder clusterScoped(GroupResource gr, String kind, List<TableColumn> columns) {
        return StoreSpec.builder(gr, kind)
                .namespaced(false)
                .schema(ResourceSchema.load(StorageRESTStorageProvider.class, "/openapi/schemas.json",
                        "io.k8s.api.storage.v1." + kind))
                .nameValidation(NameValidation.DNS1123_SUBDOMAIN)
                .tableColumns(columns.toArray(TableColumn[]::new))
                // kube answers a delete of each storage.k8s.io kind with the deleted object
                .deleteStrategy(RESTDeleteStrategy.returningDeletedObject());
    }
}
