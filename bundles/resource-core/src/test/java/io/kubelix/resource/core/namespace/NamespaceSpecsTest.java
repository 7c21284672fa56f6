package io.kubelix.resource.core.namespace;

import io.kubelix.api.registry.NameValidation;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.schema.GroupResource;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.kubelix.resource.core.testing.Tables.headers;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

/** The namespaces' Store as kube serves it. */
class NamespaceSpecsTest {

    @Test
    void namespaceSpec() {
        StoreSpec spec = NamespaceSpecs.namespaceSpec();
        assertEquals(GroupResource.of("", "namespaces"), spec.groupResource());
        assertEquals("Namespace", spec.kind());
        assertEquals("namespace", spec.singularName());
        assertFalse(spec.namespaced());
        assertEquals(List.of("ns"), spec.shortNames());
        assertEquals(NameValidation.DNS1123_LABEL, spec.nameValidation());
        assertEquals("/namespaces", spec.resourcePrefix());
        assertInstanceOf(NamespaceStrategy.class, spec.createStrategy());
        assertSame(spec.createStrategy(), spec.updateStrategy());
        assertEquals(List.of("Name", "Status", "Age"), headers(spec));
    }
}
