package io.kubelix.resource.apps;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.APIGroupInfo;
import io.kubelix.api.registry.NameValidation;
import io.kubelix.api.registry.RESTOptionsGetter;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.RESTStorageProvider;
import io.kubelix.api.registry.ScaleSubresource;
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
import java.util.function.Function;

/**
 * The apps group's RESTStorageProvider (kube's apps RESTStorageProvider): {@code /apis/apps/v1}
 * deployments, replicasets, statefulsets and daemonsets, each with {@code status}, the first three
 * with {@code scale}, and controllerrevisions. There is no controller manager: a workload's status
 * stays what its {@code status} subresource was last given.
 */
@Component(service = RESTStorageProvider.class)
public final class AppsRESTStorageProvider implements RESTStorageProvider {
    static final String GROUP = "apps";
    static final String VERSION = "v1";
    static final GroupResource DEPLOYMENTS = GroupResource.of(GROUP, "deployments");
    static final GroupResource REPLICASETS = GroupResource.of(GROUP, "replicasets");
    static final GroupResource STATEFULSETS = GroupResource.of(GROUP, "statefulsets");
    static final GroupResource DAEMONSETS = GroupResource.of(GROUP, "daemonsets");
    static final GroupResource CONTROLLERREVISIONS = GroupResource.of(GROUP, "controllerrevisions");

    private static final Logger LOG = LoggerFactory.getLogger(AppsRESTStorageProvider.class);

    @Override
    public String groupName() {
        return GROUP;
    }

    @Override
    public APIGroupInfo newRESTStorage(RESTOptionsGetter getter) {
        Map<String, RESTStorage> v1 = new LinkedHashMap<>();
        workload(getter, v1, deploymentSpec(), StatusValidation::deployment, true, true);
        workload(getter, v1, replicaSetSpec(), StatusValidation::replicaSet, false, true);
        workload(getter, v1, statefulSetSpec(), StatusValidation::statefulSet, true, true);
        workload(getter, v1, daemonSetSpec(), StatusValidation::daemonSet, true, false);
        v1.put("controllerrevisions", getter.newStore(controllerRevisionSpec()));
        LOG.info("built apps/v1 storage: {}", v1.keySet());
        return new APIGroupInfo(GROUP, List.of(VERSION), Map.of(VERSION, v1));
    }

    /** A workload's Store, its {@code status} and, where kube has one, its {@code scale}. */
    private static void workload(RESTOptionsGetter getter, Map<String, RESTStorage> v1, StoreSpec spec,
                                 Function<JsonNode, List<FieldError>> validateStatus, boolean collisionCount, boolean scale) {
        String resource = spec.groupResource().resource();
        StandardStorage store = getter.newStore(spec);
        v1.put(resource, store);
        v1.put(resource + "/status", getter.newStatusStore(store, new WorkloadStatusStrategy(validateStatus, collisionCount)));
        if (scale) {
            v1.put(resource + "/scale", getter.newScaleStore(store, ScaleSubresource.replicasAndSpecSelector()));
        }
    }

    static StoreSpec deploymentSpec() {
        return workload(DEPLOYMENTS, "Deployment", "deploy", WorkloadStrategy.deployment(), AppsPrinters.deploymentColumns())
                .build();
    }

    static StoreSpec replicaSetSpec() {
        return workload(REPLICASETS, "ReplicaSet", "rs", WorkloadStrategy.replicaSet(), AppsPrinters.replicaSetColumns())
                .build();
    }

    /** A statefulset's name becomes its pods' hostnames, so kube holds it to a DNS-1123 label. */
    static StoreSpec statefulSetSpec() {
        return workload(STATEFULSETS, "StatefulSet", "sts", WorkloadStrategy.statefulSet(), AppsPrinters.statefulSetColumns())
                .nameValidation(NameValidation.DNS1123_LABEL)
                .build();
    }

    static StoreSpec daemonSetSpec() {
        return workload(DAEMONSETS, "DaemonSet", "ds", WorkloadStrategy.daemonSet(), AppsPrinters.daemonSetColumns())
                .build();
    }

    static StoreSpec controllerRevisionSpec() {
        return StoreSpec.builder(CONTROLLERREVISIONS, "ControllerRevision")
                .namespaced(true)
                .schema(schema("ControllerRevision"))
                .strategy(new ControllerRevisionStrategy())
                .tableColumns(AppsPrinters.controllerRevisionColumns().toArray(TableColumn[]::new))
                .build();
    }

    /**
     * The OpenAPI schema of an apps/v1 kind, from {@code openapi/schemas.json}, which the build
     * generates from the Kubernetes Java client (the {@code openapi-schemas} execution in this
     * bundle's POM). Strategic merge patches merge workloads' containers, ports, volumes... on their
     * merge keys with it.
     */
    static ResourceSchema schema(String kind) {
        return ResourceSchema.load(AppsRESTStorageProvider.class, "/openapi/schemas.json", "io.k8s.api.apps.v1." + kind);
    }

    /** A namespaced workload in category {@code all}, tracking metadata.generation. */
    private static StoreSpec.Builder workload(GroupResource gr, String kind, String shortName, WorkloadStrategy strategy,
                                              List<TableColumn> columns) {
        return StoreSpec.builder(gr, kind)
                .namespaced(true)
                .schema(schema(kind))
                .shortNames(shortName)
                .categories("all")
                .nameValidation(NameValidation.DNS1123_SUBDOMAIN)
                .strategy(strategy)
                .generation(true)
                .tableColumns(columns.toArray(TableColumn[]::new));
    }
}
