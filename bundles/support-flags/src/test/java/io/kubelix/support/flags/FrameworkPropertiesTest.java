package io.kubelix.support.flags;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Map;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class FrameworkPropertiesTest {
    private static UnaryOperator<String> of(Map<String, String> properties) {
        return FrameworkProperties.withContainerDefaults(properties::get);
    }

    @Test
    void outsideKarafUnsetPropertiesStayUnset() {
        UnaryOperator<String> p = of(Map.of("kubelix.secure-port", "6443"));
        assertNull(p.apply(FrameworkProperties.DATA_DIR));
        assertNull(p.apply(FrameworkProperties.STORAGE_BACKEND));
        assertEquals("6443", p.apply("kubelix.secure-port"));
    }

    @Test
    void inKarafTheDataDirectoryAndBackendDeriveFromKarafData() {
        UnaryOperator<String> p = of(Map.of("karaf.data", "/opt/karaf/data"));
        assertEquals(Path.of("/opt/karaf/data", "kubelix").toString(), p.apply(FrameworkProperties.DATA_DIR));
        assertEquals("sqlite", p.apply(FrameworkProperties.STORAGE_BACKEND));
        assertNull(p.apply("kubelix.secure-port"));
    }

    @Test
    void aPropertyThatIsSetWins() {
        UnaryOperator<String> p = of(Map.of("karaf.data", "/opt/karaf/data", "kubelix.data-dir", "/srv/kubelix",
                "kubelix.storage-backend", "memory"));
        assertEquals("/srv/kubelix", p.apply(FrameworkProperties.DATA_DIR));
        assertEquals("memory", p.apply(FrameworkProperties.STORAGE_BACKEND));
    }
}
