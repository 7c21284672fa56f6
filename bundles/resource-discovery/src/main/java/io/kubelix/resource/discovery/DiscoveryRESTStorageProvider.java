package io.kubelix.resource.discovery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.registry.APIGroupInfo;
import io.kubelix.api.registry.RESTOptionsGetter;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.RESTStorageProvider;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.registry.TableColumn;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.schema.ResourceSchema;
import org.osgi.service.component.annotations.Component;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The discovery.k8s.io group's RESTStorageProvider: {@code /apis/discovery.k8s.io/v1}
 * endpointslices, namespaced, with a generation bumped when the endpoints, ports or address type
 * change, as kube's endpointslice strategy does. No controller fills them: they hold what clients
 * write.
 */
@Component(service = RESTStorageProvider.class)
public final class DiscoveryRESTStorageProvider implements RESTStorageProvider {
    static final String GROUP = "discovery.k8s.io";
    static final String VERSION = "v1";
    static final GroupResource ENDPOINTSLICES = GroupResource.of(GROUP, "endpointslices");
    /** kube's printers show at most three ports or addresses, then how many more there are. */
    private static final int MAX_SHOWN = 3;

    private static final Logger LOG = LoggerFactory.getLogger(DiscoveryRESTStorageProvider.class);

    @Override
    public String groupName() {
        return GROUP;
    }

    @Override
    public APIGroupInfo newRESTStorage(RESTOptionsGetter getter) {
        Map<String, RESTStorage> v1 = Map.of("endpointslices", getter.newStore(endpointSliceSpec()));
        LOG.info("built discovery.k8s.io/v1 storage: {}", v1.keySet());
        return new APIGroupInfo(GROUP, List.of(VERSION), Map.of(VERSION, v1));
    }

    static StoreSpec endpointSliceSpec() {
        return StoreSpec.builder(ENDPOINTSLICES, "EndpointSlice")
                .namespaced(true)
                .schema(ResourceSchema.load(DiscoveryRESTStorageProvider.class, "/openapi/schemas.json",
                        "io.k8s.api.discovery.v1.EndpointSlice"))
                .strategy(new EndpointSliceStrategy())
                .generation(true)
                .tableColumns(endpointSliceColumns().toArray(TableColumn[]::new))
                .build();
    }

    /** NAME, ADDRESSTYPE, PORTS, ENDPOINTS, AGE. */
    static List<TableColumn> endpointSliceColumns() {
        return List.of(TableColumn.nameColumn(),
                new TableColumn("AddressType", "string", "", "addressType specifies the type of address carried by "
                        + "this EndpointSlice. All addresses in this slice must be the same type. This field is immutable "
                        + "after creation.", 0, o -> o.path("addressType").asText("")),
                new TableColumn("Ports", "string", "", "ports specifies the list of network ports exposed by each "
                        + "endpoint in this slice.", 0, DiscoveryRESTStorageProvider::ports),
                new TableColumn("Endpoints", "string", "", "endpoints is a list of unique endpoints in this slice.", 0,
                        DiscoveryRESTStorageProvider::endpoints),
                TableColumn.ageColumn());
    }

    /** formatDiscoveryPorts: each port's number, else its name, else {@code *}. */
    static String ports(ObjectNode slice) {
        List<String> all = new ArrayList<>();
        for (JsonNode port : slice.path("ports")) {
            all.add(port.hasNonNull("port") ? port.get("port").asText()
                    : port.hasNonNull("name") ? port.get("name").asText() : "*");
        }
        return listWithMore(all);
    }

    /** formatDiscoveryEndpoints: every address of every endpoint. */
    static String endpoints(ObjectNode slice) {
        List<String> all = new ArrayList<>();
        for (JsonNode endpoint : slice.path("endpoints")) {
            endpoint.path("addresses").forEach(a -> all.add(a.asText()));
        }
        return listWithMore(all);
    }

    /** listWithMoreString: {@code a,b,c + 2 more...}, or {@code <unset>} when empty. */
    private static String listWithMore(List<String> all) {
        if (all.isEmpty()) {
            return "<unset>";
        }
        String shown = String.join(",", all.subList(0, Math.min(MAX_SHOWN, all.size())));
        return all.size() > MAX_SHOWN ? shown + " + " + (all.size() - MAX_SHOWN) + " more..." : shown;
    }
}
