package io.kubelix.resource.batch;

import io.kubelix.api.registry.APIGroupInfo;
import io.kubelix.api.registry.NameValidation;
import io.kubelix.api.registry.RESTOptionsGetter;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.RESTStorageProvider;
import io.kubelix.api.registry.RESTUpdateStrategy;
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
 * The batch group's RESTStorageProvider: {@code /apis/batch/v1} jobs and cronjobs, each with
 * {@code status}, in category {@code all}. There is no controller manager: a job runs no pods, a
 * cronjob makes no jobs, and their status is what the {@code status} subresource was last given.
 */
@Component(service = RESTStorageProvider.class)
public final class BatchRESTStorageProvider implements RESTStorageProvider {
    static final String GROUP = "batch";
    static final String VERSION = "v1";
    static final GroupResource JOBS = GroupResource.of(GROUP, "jobs");
    static final GroupResource CRONJOBS = GroupResource.of(GROUP, "cronjobs");

    private static final Logger LOG = LoggerFactory.getLogger(BatchRESTStorageProvider.class);

    @Override
    public String groupName() {
        return GROUP;
    }

    @Override
    public APIGroupInfo newRESTStorage(RESTOptionsGetter getter) {
        Map<String, RESTStorage> v1 = new LinkedHashMap<>();
        withStatus(getter, v1, jobSpec(), BatchStatusStrategy.job());
        withStatus(getter, v1, cronJobSpec(), BatchStatusStrategy.cronJob());
        LOG.info("built batch/v1 storage: {}", v1.keySet());
        return new APIGroupInfo(GROUP, List.of(VERSION), Map.of(VERSION, v1));
    }

    private static void withStatus(RESTOptionsGetter getter, Map<String, RESTStorage> v1, StoreSpec spec,
                                   RESTUpdateStrategy statusStrategy) {
        String resource = spec.groupResource().resource();
        StandardStorage store = getter.newStore(spec);
        v1.put(resource, store);
        v1.put(resource + "/status", getter.newStatusStore(store, statusStrategy));
    }

    static StoreSpec jobSpec() {
        return StoreSpec.builder(JOBS, "Job")
                .namespaced(true)
                .schema(schema("Job"))
                .categories("all")
                .nameValidation(NameValidation.DNS1123_SUBDOMAIN)
                .strategy(new JobStrategy())
                .generation(true)
                // kube's job field selector: kubectl get jobs --field-selector status.successful=1
                .selectableField("status.successful", o -> Long.toString(o.path("status").path("succeeded").asLong(0)))
                .tableColumns(BatchPrinters.jobColumns().toArray(TableColumn[]::new))
                .build();
    }

    static StoreSpec cronJobSpec() {
        return StoreSpec.builder(CRONJOBS, "CronJob")
                .namespaced(true)
                .schema(schema("CronJob"))
                .shortNames("cj")
                .categories("all")
                .nameValidation(NameValidation.DNS1123_SUBDOMAIN)
                .strategy(new CronJobStrategy())
                .generation(true)
                .tableColumns(BatchPrinters.cronJobColumns().toArray(TableColumn[]::new))
                .build();
    }

    /** The OpenAPI schema of a batch/v1 kind, generated at build time (the {@code openapi-schemas} execution). */
    static ResourceSchema schema(String kind) {
        return ResourceSchema.load(BatchRESTStorageProvider.class, "/openapi/schemas.json", "io.k8s.api.batch.v1." + kind);
    }
}
