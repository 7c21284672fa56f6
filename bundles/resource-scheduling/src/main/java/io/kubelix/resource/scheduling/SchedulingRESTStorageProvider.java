package io.kubelix.resource.scheduling;

import io.kubelix.api.registry.APIGroupInfo;
import io.kubelix.api.registry.NameValidation;
import io.kubelix.api.registry.RESTOptionsGetter;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.RESTStorageProvider;
import io.kubelix.api.registry.StandardStorage;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.registry.TableColumn;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.schema.ResourceSchema;
import io.kubelix.api.server.PostStartHook;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * The scheduling.k8s.io group's RESTStorageProvider: {@code /apis/scheduling.k8s.io/v1}
 * priorityclasses (cluster-scoped, short name {@code pc}). It is also kube's
 * {@code scheduling/bootstrap-system-priority-classes} post-start hook: once the Store is built,
 * the two system priority classes are created ({@link SystemPriorityClasses}), and {@code /readyz}
 * waits for them.
 */
@Component(service = {RESTStorageProvider.class, PostStartHook.class})
public final class SchedulingRESTStorageProvider implements RESTStorageProvider, PostStartHook {
    static final String GROUP = "scheduling.k8s.io";
    static final String VERSION = "v1";
    static final GroupResource PRIORITY_CLASSES = GroupResource.of(GROUP, "priorityclasses");

    private static final Logger LOG = LoggerFactory.getLogger(SchedulingRESTStorageProvider.class);

    /** The Store most recently built; completed by the first build. */
    private volatile CompletableFuture<StandardStorage> priorityClasses = new CompletableFuture<>();

    @Activate
    public SchedulingRESTStorageProvider() {
    }

    @Override
    public String groupName() {
        return GROUP;
    }

    @Override
    public APIGroupInfo newRESTStorage(RESTOptionsGetter getter) {
        StandardStorage priorityClasses = getter.newStore(priorityClassSpec(new PriorityClassStrategy()));
        if (!this.priorityClasses.complete(priorityClasses)) {
            this.priorityClasses = CompletableFuture.completedFuture(priorityClasses);
        }
        LOG.info("built scheduling.k8s.io/v1 storage: [priorityclasses]");
        Map<String, RESTStorage> v1 = Map.of(PRIORITY_CLASSES.resource(), priorityClasses);
        return new APIGroupInfo(GROUP, List.of(VERSION), Map.of(VERSION, v1));
    }

    @Override
    public String name() {
        return "scheduling/bootstrap-system-priority-classes";
    }

    /** Waits for the Store, then creates the system classes; fails (and is run again) until both exist. */
    @Override
    public void run() throws InterruptedException, ExecutionException {
        if (!new SystemPriorityClasses(priorityClasses.get()).ensure()) {
            throw new IllegalStateException("the system priority classes are not all created yet");
        }
    }

    static StoreSpec priorityClassSpec(PriorityClassStrategy strategy) {
        return StoreSpec.builder(PRIORITY_CLASSES, "PriorityClass")
                .namespaced(false)
                .schema(ResourceSchema.load(SchedulingRESTStorageProvider.class, "/openapi/schemas.json",
                        "io.k8s.api.scheduling.v1.PriorityClass"))
                .shortNames("pc")
                .nameValidation(NameValidation.DNS1123_SUBDOMAIN)
                .strategy(strategy)
                .tableColumns(priorityClassColumns().toArray(TableColumn[]::new))
                .build();
    }

    /** kube's PriorityClass columns: NAME, VALUE, GLOBAL-DEFAULT, AGE, PREEMPTIONPOLICY. */
    static List<TableColumn> priorityClassColumns() {
        return List.of(TableColumn.nameColumn(),
                new TableColumn("Value", "integer", "", "The value of this priority class: the priority that pods of "
                        + "this class receive.", 0, o -> o.path("value").asLong(0)),
                new TableColumn("Global-Default", "boolean", "", "Whether this class is the default priority of pods "
                        + "that name no priority class.", 0, o -> o.path("globalDefault").asBoolean(false)),
                TableColumn.ageColumn(),
                new TableColumn("PreemptionPolicy", "string", "", "The policy for preempting pods with lower "
                        + "priority.", 0, o -> o.path("preemptionPolicy").asText("")));
    }
}
