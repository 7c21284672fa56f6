package io.kubelix.api.validation;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NameValidatorsTest {

    @Test
    void dns1123LabelAcceptsKubernetesNamesAndRejectsOthers() {
        assertTrue(NameValidators.isDNS1123Label("kube-system").isEmpty());
        assertTrue(NameValidators.isDNS1123Label("a").isEmpty());
        assertFalse(NameValidators.isDNS1123Label("Default").isEmpty());
        assertFalse(NameValidators.isDNS1123Label("a.b").isEmpty());
        assertFalse(NameValidators.isDNS1123Label("-a").isEmpty());
        assertEquals(1, NameValidators.isDNS1123Label("a".repeat(64)).size());
    }

    @Test
    void dns1123SubdomainAllowsDotsUpTo253() {
        assertTrue(NameValidators.isDNS1123Subdomain("my.config-1").isEmpty());
        assertFalse(NameValidators.isDNS1123Subdomain("my_config").isEmpty());
        assertFalse(NameValidators.isDNS1123Subdomain("a..b").isEmpty());
        assertEquals(1, NameValidators.isDNS1123Subdomain("a".repeat(254)).size());
    }

    @Test
    void qualifiedNamesTakeAnOptionalSubdomainPrefix() {
        assertTrue(NameValidators.isQualifiedName("app").isEmpty());
        assertTrue(NameValidators.isQualifiedName("app.kubernetes.io/name").isEmpty());
        assertTrue(NameValidators.isQualifiedName("My_Key.1").isEmpty());
        assertFalse(NameValidators.isQualifiedName("/name").isEmpty());
        assertFalse(NameValidators.isQualifiedName("a/b/c").isEmpty());
        assertFalse(NameValidators.isQualifiedName("Example.com/x").isEmpty());
        assertFalse(NameValidators.isQualifiedName("x".repeat(64)).isEmpty());
    }

    @Test
    void labelValuesMayBeEmpty() {
        assertTrue(NameValidators.isValidLabelValue("").isEmpty());
        assertTrue(NameValidators.isValidLabelValue("v1.2_x").isEmpty());
        assertFalse(NameValidators.isValidLabelValue("has space").isEmpty());
        assertFalse(NameValidators.isValidLabelValue("-x").isEmpty());
    }

    @Test
    void pathSegmentNamesRejectSlashAndDots() {
        assertTrue(NameValidators.isValidPathSegmentName("Any_Name").isEmpty());
        assertFalse(NameValidators.isValidPathSegmentName("..").isEmpty());
        assertFalse(NameValidators.isValidPathSegmentName("a/b").isEmpty());
    }
}
