package io.kubelix.api.schema;

import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Schemas loaded from a bundle's document: each kind with what it refers to, each load its own copy. */
class ResourceSchemaTest {
    private static final String DOCUMENT = "/schema/test-schemas.json";

    @Test
    void aKindComesWithTheDefinitionsItRefersToAndNoOthers() {
        ResourceSchema widget = ResourceSchema.load(ResourceSchemaTest.class, DOCUMENT, "example.Widget");
        assertEquals(Set.of("example.Widget", "example.WidgetSpec"), widget.definitions().keySet());
        assertEquals("integer", widget.resolve(widget.root().path("properties").path("spec"))
                .path("properties").path("size").path("type").asText());
        ResourceSchema gadget = ResourceSchema.load(ResourceSchemaTest.class, DOCUMENT, "example.Gadget");
        assertEquals(Set.of("example.Gadget"), gadget.definitions().keySet());
    }

    @Test
    void eachLoadHasItsOwnCopyOfTheDocumentReadOnce() {
        ResourceSchema first = ResourceSchema.load(ResourceSchemaTest.class, DOCUMENT, "example.Widget");
        ResourceSchema second = ResourceSchema.load(ResourceSchemaTest.class, DOCUMENT, "example.Widget");
        assertEquals(first.definitions(), second.definitions());
        assertNotSame(first.root(), second.root());
        first.root().put("description", "changed by one store");
        assertTrue(second.root().path("description").isMissingNode(), "a change to one schema reaches no other");
        ResourceSchema third = ResourceSchema.load(ResourceSchemaTest.class, DOCUMENT, "example.Widget");
        assertTrue(third.root().path("description").isMissingNode(), "nor the document later loads read");
    }

    @Test
    void aMissingDocumentOrKindSaysWhich() {
        IllegalStateException missing = assertThrows(IllegalStateException.class,
                () -> ResourceSchema.load(ResourceSchemaTest.class, "/schema/none.json", "example.Widget"));
        assertTrue(missing.getMessage().contains("/schema/none.json is missing"), missing.getMessage());
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> ResourceSchema.load(ResourceSchemaTest.class, DOCUMENT, "example.Nothing"));
        assertEquals("no definition named example.Nothing", unknown.getMessage());
    }
}
