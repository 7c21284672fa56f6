package io.kubelix.api.validation;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NameValidatorsTest {

    @Test
    void dns1123LabelAcceptsKubernetesNamesAndRejectsOthers() {
        assertTrue(NameValidators.isDNS1123Label("kube-system").isEmpty());
        assertTrue(NameValidators.isDNS1123Label("a").isEmpty());
        assertFalse(NameValidators.isDNS1123Label("Default").isEmpty());
        assertEquals(java.util.List.of("must not contain dots"), NameValidators.isDNS1123Label("a.b"));
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

    @Test
    void dns1123LabelMessagesAreKubeApiserversWords() {
        assertTrue(NameValidators.isDNS1123Label("kube-system").isEmpty());
        assertTrue(NameValidators.isDNS1123Label("a").isEmpty());
        assertTrue(NameValidators.isDNS1123Label("123-abc").isEmpty());
        assertEquals(List.of("must not contain dots"), NameValidators.isDNS1123Label("a.b"));
        assertEquals(List.of("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', "
                + "and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', "
                + "regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"), NameValidators.isDNS1123Label("Foo"));
        assertEquals(List.of("must be no more than 63 characters"), NameValidators.isDNS1123Label("a".repeat(64)));
        assertEquals(1, NameValidators.isDNS1123Label("-a").size());
        assertEquals(1, NameValidators.isDNS1123Label("").size());
    }

    @Test
    void dns1123SubdomainMessagesAreKubeApiserversWords() {
        assertTrue(NameValidators.isDNS1123Subdomain("example.com").isEmpty());
        assertTrue(NameValidators.isDNS1123Subdomain("a-b.c").isEmpty());
        assertEquals(List.of("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, "
                + "'-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', "
                + "regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"),
                NameValidators.isDNS1123Subdomain("a..b"));
        assertEquals("must be no more than 253 characters", NameValidators.isDNS1123Subdomain("a".repeat(254)).get(0));
    }

    @Test
    void qualifiedNameMessagesAreKubeApiserversWords() {
        assertTrue(NameValidators.isQualifiedName("kubernetes").isEmpty());
        assertTrue(NameValidators.isQualifiedName("example.com/My_Name").isEmpty());
        assertEquals(List.of("prefix part must be non-empty"), NameValidators.isQualifiedName("/name"));
        assertEquals("name part must be non-empty", NameValidators.isQualifiedName("example.com/").get(0));
        assertEquals(1, NameValidators.isQualifiedName("a/b/c").size());
        assertTrue(NameValidators.isQualifiedName("a/b/c").get(0).startsWith("a qualified name must consist of"));
        assertEquals("name part must be no more than 63 characters", NameValidators.isQualifiedName("a".repeat(64)).get(0));
        assertTrue(NameValidators.isQualifiedName("Example.com/x").get(0).startsWith("prefix part a lowercase RFC 1123 subdomain"));
    }
}
