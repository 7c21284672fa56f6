package io.kubelix.itest.osgi;

import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;

import java.util.Arrays;
import java.util.stream.Collectors;

/** Finds the container's bundles by symbolic name. */
final class Bundles {
    private Bundles() {
    }

    /** The Kubelix bundle built from module {@code name}, or null when it is not installed. */
    static Bundle find(BundleContext context, String name) {
        String symbolicName = "io.kubelix." + name;
        return Arrays.stream(context.getBundles()).filter(b -> symbolicName.equals(b.getSymbolicName()))
                .findFirst().orElse(null);
    }

    /** The Kubelix bundle built from module {@code name} ({@code io.kubelix.<name>}). */
    static Bundle kubelix(BundleContext context, String name) {
        String symbolicName = "io.kubelix." + name;
        return Arrays.stream(context.getBundles())
                .filter(b -> symbolicName.equals(b.getSymbolicName()))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no bundle " + symbolicName + " among "
                        + Arrays.stream(context.getBundles()).map(Bundle::getSymbolicName).collect(Collectors.joining(", "))));
    }
}
