package io.kubelix.resource.core.event;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.resource.core.testing.Json;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EventStrategyTest {

    @Test
    void eventsMustBeInTheirObjectsNamespace() {
        ObjectNode ok = Json.obj("""
                {"metadata":{"name":"e1","namespace":"team"},"involvedObject":{"kind":"ConfigMap","namespace":"team"}}""");
        assertTrue(EventStrategy.validateEvent(ok).isEmpty());
        ObjectNode clusterScoped = Json.obj("""
                {"metadata":{"name":"e2","namespace":"default"},"involvedObject":{"kind":"Node","name":"n1"}}""");
        assertTrue(EventStrategy.validateEvent(clusterScoped).isEmpty());
        ObjectNode elsewhere = Json.obj("""
                {"metadata":{"name":"e3","namespace":"team"},"involvedObject":{"kind":"ConfigMap","namespace":"other"}}""");
        assertEquals(List.of("involvedObject.namespace: Invalid value: \"other\": does not match event.namespace"),
                EventStrategy.validateEvent(elsewhere).stream().map(e -> e.message()).toList());
    }
}
