package io.kubelix.resource.core.event;

import io.kubelix.api.registry.NameValidation;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.registry.TableColumn;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.resource.core.common.CoreSchemas;

/** The Store of core/v1 events, as {@link io.kubelix.resource.core.CoreRESTStorageProvider} serves it. */
public final class EventSpecs {
    public static final GroupResource EVENTS = GroupResource.of("", "events");

    private EventSpecs() {
    }

    public static StoreSpec eventSpec() {
        StoreSpec.Builder b = StoreSpec.builder(EVENTS, "Event")
                .schema(CoreSchemas.v1("Event"))
                .namespaced(true)
                .shortNames("ev")
                .nameValidation(NameValidation.DNS1123_SUBDOMAIN)
                .strategy(new EventStrategy())
                .tableColumns(EventPrinters.eventColumns().toArray(TableColumn[]::new));
        for (String f : new String[] {"kind", "namespace", "name", "uid", "apiVersion", "resourceVersion", "fieldPath"}) {
            b.selectableField("involvedObject." + f, o -> o.path("involvedObject").path(f).asText(""));
        }
        return b.selectableField("reason", o -> o.path("reason").asText(""))
                .selectableField("reportingComponent", o -> o.path("reportingComponent").asText(""))
                .selectableField("source", EventStrategy::source)
                .selectableField("type", o -> o.path("type").asText(""))
                .build();
    }
}
