package io.kubelix.itest.sample;

import io.kubelix.api.registry.APIGroupInfo;
import io.kubelix.api.registry.RESTOptionsGetter;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.RESTStorageProvider;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.schema.GroupResource;
import org.osgi.service.component.annotations.Component;

import java.util.List;
import java.util.Map;

/** Serves {@code /apis/sample.kubelix.io/v1/namespaces/{ns}/widgets} from one generic Store. */
@Component(service = RESTStorageProvider.class)
public final class WidgetRESTStorageProvider implements RESTStorageProvider {
    static final String GROUP = "sample.kubelix.io";
    static final String VERSION = "v1";
    static final GroupResource WIDGETS = GroupResource.of(GROUP, "widgets");

    @Override
    public String groupName() {
        return GROUP;
    }

    @Override
    public APIGroupInfo newRESTStorage(RESTOptionsGetter restOptionsGetter) {
        RESTStorage widgets = restOptionsGetter.newStore(StoreSpec.builder(WIDGETS, "Widget")
                .namespaced(true)
                .shortNames("wg")
                .strategy(new WidgetStrategy())
                .build());
        return new APIGroupInfo(GROUP, List.of(VERSION), Map.of(VERSION, Map.of(WIDGETS.resource(), widgets)));
    }
}
