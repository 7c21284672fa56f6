package io.kubelix.admission.webhook;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.EquivalentResourceMapper;
import io.kubelix.api.schema.GroupVersionKind;
import io.kubelix.api.schema.GroupVersionResource;

import java.util.List;

/** Two versions of one resource, as a server serves them: v1 widgets keep {@code size} where v2 have {@code spec.size}. */
final class WidgetVersions implements EquivalentResourceMapper {
    static final GroupVersionResource V1 = new GroupVersionResource("example.com", "v1", "widgets");
    static final GroupVersionResource V2 = new GroupVersionResource("example.com", "v2", "widgets");

    @Override
    public List<GroupVersionResource> equivalentResourcesFor(GroupVersionResource resource, String subresource) {
        return resource.equals(V1) || resource.equals(V2) ? List.of(V1, V2) : List.of(resource);
    }

    @Override
    public GroupVersionKind kindFor(GroupVersionResource resource, String subresource) {
        return new GroupVersionKind(resource.group(), resource.version(), "Widget");
    }

    @Override
    public ObjectNode convert(ObjectNode obj, GroupVersionResource from, GroupVersionResource to, String subresource) {
        ObjectNode c = obj.deepCopy();
        c.put("apiVersion", "example.com/" + to.version());
        if (to.equals(V2) && c.has("size")) {
            c.putObject("spec").set("size", c.remove("size"));
        } else if (to.equals(V1) && c.has("spec")) {
            c.set("size", ((ObjectNode) c.remove("spec")).get("size"));
        }
        return c;
    }
}
