package io.kubelix.examples.widget;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.api.schema.ResourceSchema;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WidgetSchemaTest {

    @Test
    void theSchemaDescribesSpecAndStatus() {
        ResourceSchema schema = WidgetRESTStorageProvider.schema();
        assertEquals("io.kubelix.sample.v1.Widget", schema.name());
        JsonNode spec = schema.resolve(schema.root().path("properties").path("spec"));
        assertEquals("integer", spec.path("properties").path("size").path("type").asText());
        JsonNode status = schema.resolve(schema.root().path("properties").path("status"));
        assertEquals("boolean", status.path("properties").path("ready").path("type").asText());
        assertTrue(schema.root().path("properties").has("metadata"));
    }
}
