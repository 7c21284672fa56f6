package io.kubelix.resource.core.event;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.resource.core.testing.Json;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.kubelix.resource.core.testing.Tables.headers;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The events' Store as kube serves it. */
class EventSpecsTest {

    @Test
    void eventSpecLetsKubectlDescribeSelectByInvolvedObject() {
        StoreSpec spec = EventSpecs.eventSpec();
        assertEquals("Event", spec.kind());
        assertTrue(spec.namespaced());
        assertEquals(List.of("ev"), spec.shortNames());
        assertEquals(List.of("Last Seen", "Type", "Reason", "Object", "Subobject", "Source", "Message", "First Seen",
                "Count", "Name"), headers(spec));
        ObjectNode event = Json.obj("""
                {"metadata":{"name":"e1","namespace":"team"},"involvedObject":{"kind":"ConfigMap","name":"c1",
                 "namespace":"team","uid":"u-1"},"reason":"Updated","type":"Normal","source":{"component":"kubelet"}}""");
        assertEquals("ConfigMap", spec.selectableFields().get("involvedObject.kind").apply(event));
        assertEquals("c1", spec.selectableFields().get("involvedObject.name").apply(event));
        assertEquals("u-1", spec.selectableFields().get("involvedObject.uid").apply(event));
        assertEquals("kubelet", spec.selectableFields().get("source").apply(event));
        assertEquals("Normal", spec.selectableFields().get("type").apply(event));
        assertEquals("configmap/c1", spec.tableColumns().get(3).cell().apply(event));
    }
}
