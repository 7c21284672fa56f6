package io.kubelix.resource.events;

import io.kubelix.api.registry.APIGroupInfo;
import io.kubelix.api.registry.NameValidation;
import io.kubelix.api.registry.RESTOptionsGetter;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.RESTStorageProvider;
import io.kubelix.api.registry.StorageConversion;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.registry.TableColumn;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.schema.ResourceSchema;
import org.osgi.service.component.annotations.Component;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;

/**
 * The events.k8s.io group's RESTStorageProvider: {@code /apis/events.k8s.io/v1} events ({@code ev}),
 * stored as the core/v1 events under their key prefix ({@code /events}), as kube stores both APIs'
 * events as one resource. Field selectors name this API's fields ({@code regarding.name},
 * {@code reportingController}...), as kube's events.k8s.io field label conversion does.
 */
@Component(service = RESTStorageProvider.class)
public final class EventsRESTStorageProvider implements RESTStorageProvider {
    static final String GROUP = "events.k8s.io";
    static final String VERSION = "v1";
    static final GroupResource EVENTS = GroupResource.of(GROUP, "events");
    /** The key prefix of the core/v1 events, whose objects these are. */
    static final String CORE_EVENTS_PREFIX = "/events";

    private static final Logger LOG = LoggerFactory.getLogger(EventsRESTStorageProvider.class);

    @Override
    public String groupName() {
        return GROUP;
    }

    @Override
    public APIGroupInfo newRESTStorage(RESTOptionsGetter getter) {
        Map<String, RESTStorage> v1 = Map.of(EVENTS.resource(), getter.newStore(eventSpec()));
        LOG.info("built events.k8s.io/v1 storage over the core/v1 events: [events]");
        return new APIGroupInfo(GROUP, List.of(VERSION), Map.of(VERSION, v1));
    }

    static StoreSpec eventSpec() {
        StorageConversion conversion = new EventConversion();
        StoreSpec.Builder b = StoreSpec.builder(EVENTS, "Event")
                .namespaced(true)
                .schema(ResourceSchema.load(EventsRESTStorageProvider.class, "/openapi/schemas.json",
                        "io.k8s.api.events.v1.Event"))
                .shortNames("ev")
                .nameValidation(NameValidation.DNS1123_SUBDOMAIN)
                .strategy(new EventStrategy(conversion))
                .storedAs(CORE_EVENTS_PREFIX, conversion)
                .tableColumns(EventPrinters.columns().toArray(TableColumn[]::new));
        for (String f : new String[] {"kind", "namespace", "name", "uid", "apiVersion", "resourceVersion", "fieldPath"}) {
            b.selectableField("regarding." + f, o -> o.path("regarding").path(f).asText(""));
        }
        return b.selectableField("reason", o -> o.path("reason").asText(""))
                .selectableField("reportingController", o -> o.path("reportingController").asText(""))
                .selectableField("type", o -> o.path("type").asText(""))
                .build();
    }
}
