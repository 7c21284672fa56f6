package io.kubelix.examples.widget;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/**
 * Serves {@code /apis/sample.kubelix.io/v1/namespaces/{namespace}/widgets} and its
 * {@code widgets/status} subresource. Registered as a
 * RESTStorageProvider service when the bundle starts; Kubelix then calls {@link #newRESTStorage}
 * and adds the group to its routes, discovery and OpenAPI. When the bundle stops, all of it goes
 * away again; the widgets stay in storage and are served again when the bundle comes back.
 */
@Component(service = RESTStorageProvider.class)
public final class WidgetRESTStorageProvider implements RESTStorageProvider {
    static final String GROUP = "sample.kubelix.io";
    static final String VERSION = "v1";
    static final GroupResource WIDGETS = GroupResource.of(GROUP, "widgets");

    /** The OpenAPI schema of widgets, written by hand in {@code openapi/widget.json} beside the classes. */
    static ResourceSchema schema() {
        try (InputStream in = WidgetRESTStorageProvider.class.getResourceAsStream("/openapi/widget.json")) {
            return ResourceSchema.load(in, "io.kubelix.sample.v1.Widget");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String groupName() {
        return GROUP;
    }

    @Override
    public APIGroupInfo newRESTStorage(RESTOptionsGetter restOptionsGetter) {
        StandardStorage widgets = restOptionsGetter.newStore(StoreSpec.builder(WIDGETS, "Widget")
                .namespaced(true)
                .shortNames("wg")
                .categories("all")
                .strategy(new WidgetStrategy())
                // kubectl explain widget.spec, and fieldValidation of unknown fields (openapi/widget.json)
                .schema(schema())
                // metadata.generation: 1 on create, +1 on every spec change (not on status changes)
                .generation(true)
                // kubectl get widgets: NAME  SIZE  AGE
                .tableColumns(TableColumn.nameColumn(),
                        new TableColumn("Size", "integer", "", "The number of parts of the widget.", 0,
                                WidgetRESTStorageProvider::size),
                        TableColumn.ageColumn())
                .build());
        // The status subresource: the same objects, where an update changes only the status.
        RESTStorage status = restOptionsGetter.newStatusStore(widgets, new WidgetStatusStrategy());
        return new APIGroupInfo(GROUP, List.of(VERSION), Map.of(VERSION, Map.of(
                WIDGETS.resource(), widgets,
                WIDGETS.resource() + "/status", status)));
    }

    private static Object size(ObjectNode widget) {
        JsonNode size = widget.path("spec").path("size");
        return size.isIntegralNumber() ? size.asLong() : null;
    }
}
