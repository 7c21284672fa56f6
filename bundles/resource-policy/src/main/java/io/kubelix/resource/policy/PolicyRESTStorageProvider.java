package io.kubelix.resource.policy;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.api.registry.APIGroupInfo;
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
 * The policy group's RESTStorageProvider: {@code /apis/policy/v1} poddisruptionbudgets (short
 * name {@code pdb}) with {@code status}. No disruption controller runs: a budget's status is what
 * its {@code status} subresource was last given.
 */
@Component(service = RESTStorageProvider.class)
public final class PolicyRESTStorageProvider implements RESTStorageProvider {
    static final String GROUP = "policy";
    static final String VERSION = "v1";
    static final GroupResource PODDISRUPTIONBUDGETS = GroupResource.of(GROUP, "poddisruptionbudgets");
    private static final String INT_OR_PERCENT = "This can be either an integer or a string specifying a percentage, "
            + "e.g. \"28%\".";

    private static final Logger LOG = LoggerFactory.getLogger(PolicyRESTStorageProvider.class);

    @Override
    public String groupName() {
        return GROUP;
    }

    @Override
    public APIGroupInfo newRESTStorage(RESTOptionsGetter getter) {
        Map<String, RESTStorage> v1 = new LinkedHashMap<>();
        StandardStorage store = getter.newStore(podDisruptionBudgetSpec());
        v1.put("poddisruptionbudgets", store);
        v1.put("poddisruptionbudgets/status", getter.newStatusStore(store, new PodDisruptionBudgetStrategy.Status()));
        LOG.info("built policy/v1 storage: {}", v1.keySet());
        return new APIGroupInfo(GROUP, List.of(VERSION), Map.of(VERSION, v1));
    }

    static StoreSpec podDisruptionBudgetSpec() {
        return StoreSpec.builder(PODDISRUPTIONBUDGETS, "PodDisruptionBudget")
                .namespaced(true)
                .schema(ResourceSchema.load(PolicyRESTStorageProvider.class, "/openapi/schemas.json",
                        "io.k8s.api.policy.v1.PodDisruptionBudget"))
                .shortNames("pdb")
                .strategy(new PodDisruptionBudgetStrategy())
                .generation(true)
                .tableColumns(podDisruptionBudgetColumns().toArray(TableColumn[]::new))
                .build();
    }

    /** NAME, MIN AVAILABLE, MAX UNAVAILABLE, ALLOWED DISRUPTIONS, AGE. */
    static List<TableColumn> podDisruptionBudgetColumns() {
        return List.of(TableColumn.nameColumn(),
                new TableColumn("Min Available", "string", "", "The minimum number of pods that must be available "
                        + "simultaneously. " + INT_OR_PERCENT, 0, o -> intOrString(o.path("spec").get("minAvailable"))),
                new TableColumn("Max Unavailable", "string", "", "The maximum number of pods that may be unavailable "
                        + "simultaneously. " + INT_OR_PERCENT, 0, o -> intOrString(o.path("spec").get("maxUnavailable"))),
                new TableColumn("Allowed Disruptions", "integer", "", "Calculated number of pods that may be disrupted at "
                        + "this time.", 0, o -> o.path("status").path("disruptionsAllowed").asLong(0)),
                TableColumn.ageColumn());
    }

    /** IntOrString.String(), or {@code N/A} when unset. */
    private static String intOrString(JsonNode v) {
        return v == null || v.isNull() ? "N/A" : v.asText();
    }
}
