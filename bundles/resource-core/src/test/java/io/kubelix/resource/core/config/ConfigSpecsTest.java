package io.kubelix.resource.core.config;

import io.kubelix.api.registry.NameValidation;
import io.kubelix.api.registry.StoreSpec;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.kubelix.resource.core.testing.Tables.headers;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The configmaps' and secrets' Stores as kube serves them. */
class ConfigSpecsTest {

    @Test
    void configMapSpec() {
        StoreSpec spec = ConfigSpecs.configMapSpec();
        assertEquals("ConfigMap", spec.kind());
        assertEquals("configmap", spec.singularName());
        assertTrue(spec.namespaced());
        assertEquals(List.of("cm"), spec.shortNames());
        assertEquals(NameValidation.DNS1123_SUBDOMAIN, spec.nameValidation());
        assertInstanceOf(ConfigMapStrategy.class, spec.updateStrategy());
        assertEquals(List.of("Name", "Data", "Age"), headers(spec));
    }

    @Test
    void secretSpec() {
        StoreSpec spec = ConfigSpecs.secretSpec();
        assertEquals("Secret", spec.kind());
        assertEquals("secret", spec.singularName());
        assertTrue(spec.namespaced());
        assertEquals(List.of(), spec.shortNames());
        assertEquals(NameValidation.DNS1123_SUBDOMAIN, spec.nameValidation());
        assertInstanceOf(SecretStrategy.class, spec.createStrategy());
        assertEquals(List.of("Name", "Type", "Data", "Age"), headers(spec));
    }
}
