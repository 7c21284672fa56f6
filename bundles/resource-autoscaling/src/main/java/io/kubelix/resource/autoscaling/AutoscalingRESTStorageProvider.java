package io.kubelix.resource.autoscaling;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubelix.api.registry.APIGroupInfo;
import io.kubelix.api.registry.NameValidation;
import io.kubelix.api.registry.RESTOptionsGetter;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.RESTStorageProvider;
import io.kubelix.api.registry.StandardStorage;
import io.kubelix.api.registry.StorageConversion;
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
 * The autoscaling group's RESTStorageProvider: horizontalpodautoscalers ({@code hpa}, category
 * {@code all}, with {@code status}) at {@code /apis/autoscaling/v2}, the preferred and stored version,
 * and the same objects at {@code /apis/autoscaling/v1} (what {@code kubectl autoscale} posts) through
 * {@link HPAV1Conversion}.
 */
@Component(service = RESTStorageProvider.class)
public final class AutoscalingRESTStorageProvider implements RESTStorageProvider {
    static final String GROUP = "autoscaling";
    static final GroupResource HPAS = GroupResource.of(GROUP, "horizontalpodautoscalers");

    private static final Logger LOG = LoggerFactory.getLogger(AutoscalingRESTStorageProvider.class);
    /** The bundle's one ObjectMapper, reading and writing the conversion's annotations. */
    private final ObjectMapper mapper = new ObjectMapper();

    @Override
    public String groupName() {
        return GROUP;
    }

    @Override
    public APIGroupInfo newRESTStorage(RESTOptionsGetter getter) {
        Map<String, RESTStorage> v2 = new LinkedHashMap<>();
        StandardStorage hpas = getter.newStore(v2Spec());
        v2.put(HPAS.resource(), hpas);
        v2.put(HPAS.resource() + "/status", getter.newStatusStore(hpas, new HPAStatusStrategy()));

        Map<String, RESTStorage> v1 = new LinkedHashMap<>();
        StorageConversion conversion = new HPAV1Conversion(mapper);
        StandardStorage hpasV1 = getter.newStore(v1Spec(conversion));
        v1.put(HPAS.resource(), hpasV1);
        v1.put(HPAS.resource() + "/status", getter.newStatusStore(hpasV1,
                new ConvertedStrategy(conversion, null, new HPAStatusStrategy())));
        LOG.info("built autoscaling/v2 and autoscaling/v1 storage: {}", v2.keySet());
        return new APIGroupInfo(GROUP, List.of("v2", "v1"), Map.of("v2", v2, "v1", v1));
    }

    static StoreSpec v2Spec() {
        return builder("io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler", HPAPrinters.columns())
                .strategy(new HPAStrategy())
                .build();
    }

    /** autoscaling/v1: the v2 strategy and columns applied to the v2 form, the objects stored as v2. */
    static StoreSpec v1Spec(StorageConversion conversion) {
        List<TableColumn> columns = HPAPrinters.columns().stream().map(c -> c.isAge() ? c : new TableColumn(c.name(),
                c.type(), c.format(), c.description(), c.priority(), o -> c.cell().apply(conversion.toStorage(o)))).toList();
        HPAStrategy strategy = new HPAStrategy();
        return builder("io.k8s.api.autoscaling.v1.HorizontalPodAutoscaler", columns)
                .strategy(new ConvertedStrategy(conversion, strategy, strategy))
                .storedAs("/" + HPAS.resource(), conversion)
                .build();
    }

    private static StoreSpec.Builder builder(String schema, List<TableColumn> columns) {
        return StoreSpec.builder(HPAS, "HorizontalPodAutoscaler")
                .namespaced(true)
                .schema(ResourceSchema.load(AutoscalingRESTStorageProvider.class, "/openapi/schemas.json", schema))
                .shortNames("hpa")
                .categories("all")
                .nameValidation(NameValidation.DNS1123_SUBDOMAIN)
                .tableColumns(columns.toArray(TableColumn[]::new));
    }
}
