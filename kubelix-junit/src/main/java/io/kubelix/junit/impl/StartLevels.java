package io.kubelix.junit.impl;

import java.util.Set;

/**
 * The start level {@code bin/kubelix} gives each bundle (etc/config.properties): 1 for SLF4J and the
 * service loader mediator it needs, so that nothing logs before SLF4J has its provider; 4 for the
 * plugins of plugins/; 2 for everything else, the Kubelix core included.
 */
final class StartLevels {
    static final int FRAMEWORK = 4;
    private static final Set<String> CORE = Set.of("io.kubelix.core-api", "io.kubelix.core-runtime");

    private StartLevels() {
    }

    static int of(String symbolicName) {
        if (symbolicName.equals("org.apache.aries.spifly.dynamic.bundle") || symbolicName.startsWith("org.objectweb.asm")
                || symbolicName.equals("slf4j.api") || symbolicName.equals("slf4j.simple")) {
            return 1;
        }
        if (symbolicName.startsWith("io.kubelix.") && !CORE.contains(symbolicName)) {
            return FRAMEWORK;
        }
        return 2;
    }
}
