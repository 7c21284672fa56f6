package io.kubelix.resource.core;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** DNS1123, QualifiedName and ConfigKey against apimachinery's messages. */
class NameValidationTest {

    @Test
    void dns1123Label() {
        assertTrue(DNS1123.isLabel("kube-system").isEmpty());
        assertTrue(DNS1123.isLabel("a").isEmpty());
        assertTrue(DNS1123.isLabel("123-abc").isEmpty());
        assertEquals(List.of("must not contain dots"), DNS1123.isLabel("a.b"));
        assertEquals(List.of("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', "
                + "and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', "
                + "regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"), DNS1123.isLabel("Foo"));
        assertEquals(List.of("must be no more than 63 characters"), DNS1123.isLabel("a".repeat(64)));
        assertEquals(1, DNS1123.isLabel("-a").size());
        assertEquals(1, DNS1123.isLabel("").size());
    }

    @Test
    void dns1123Subdomain() {
        assertTrue(DNS1123.isSubdomain("example.com").isEmpty());
        assertTrue(DNS1123.isSubdomain("a-b.c").isEmpty());
        assertEquals(List.of("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, "
                + "'-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', "
                + "regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"),
                DNS1123.isSubdomain("a..b"));
        assertEquals("must be no more than 253 characters", DNS1123.isSubdomain("a".repeat(254)).get(0));
    }

    @Test
    void qualifiedName() {
        assertTrue(QualifiedName.validate("kubernetes").isEmpty());
        assertTrue(QualifiedName.validate("example.com/My_Name").isEmpty());
        assertEquals(List.of("prefix part must be non-empty"), QualifiedName.validate("/name"));
        assertEquals("name part must be non-empty", QualifiedName.validate("example.com/").get(0));
        assertEquals(1, QualifiedName.validate("a/b/c").size());
        assertTrue(QualifiedName.validate("a/b/c").get(0).startsWith("a qualified name must consist of"));
        assertEquals("name part must be no more than 63 characters", QualifiedName.validate("a".repeat(64)).get(0));
        assertTrue(QualifiedName.validate("Example.com/x").get(0).startsWith("prefix part a lowercase RFC 1123 subdomain"));
    }

    @Test
    void configKey() {
        assertTrue(ConfigKey.validate("key.name").isEmpty());
        assertTrue(ConfigKey.validate("KEY_NAME").isEmpty());
        assertTrue(ConfigKey.validate(".dockercfg").isEmpty());
        assertEquals(List.of("a valid config key must consist of alphanumeric characters, '-', '_' or '.' "
                + "(e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')"),
                ConfigKey.validate("a/b"));
        assertEquals(List.of("must not be '.'"), ConfigKey.validate("."));
        assertEquals(List.of("must not be '..'"), ConfigKey.validate(".."));
        assertEquals(List.of("must not start with '..'"), ConfigKey.validate("..a"));
        assertEquals(List.of("must be no more than 253 characters"), ConfigKey.validate("k".repeat(254)));
        assertEquals(1, ConfigKey.validate("").size());
    }
}
