package io.kubelix.resource.core.config;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** DNS1123, QualifiedName and ConfigKey against apimachinery's messages. */
class NameValidationTest {

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
