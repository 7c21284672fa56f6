package io.kubelix.support.flags;

import java.nio.file.Path;
import java.util.function.UnaryOperator;

/**
 * The framework properties of {@code bin/kubelix}'s flags ({@code kubelix.<flag>}), with the
 * defaults that depend on the container they run in. In Karaf (the framework property
 * {@code karaf.data} is set) the data directory defaults to {@code <karaf.data>/kubelix} and the
 * storage backend to {@code sqlite}, the backend the {@code kubelix-core} feature installs, so that
 * {@code feature:install} alone serves; elsewhere both stay unset and each reader keeps its own
 * default ({@code .kubelix}, {@code memory}). A property that is set always wins.
 */
public final class FrameworkProperties {
    public static final String DATA_DIR = "kubelix.data-dir";
    public static final String STORAGE_BACKEND = "kubelix.storage-backend";
    static final String KARAF_DATA = "karaf.data";

    private FrameworkProperties() {
    }

    /**
     * Reads framework properties through {@code property} (a bundle context's {@code getProperty}),
     * adding the container's defaults for {@link #DATA_DIR} and {@link #STORAGE_BACKEND}.
     */
    public static UnaryOperator<String> withContainerDefaults(UnaryOperator<String> property) {
        return name -> {
            String value = property.apply(name);
            if (value != null && !value.isBlank()) {
                return value;
            }
            String karafData = property.apply(KARAF_DATA);
            if (karafData == null || karafData.isBlank()) {
                return value;
            }
            return switch (name) {
                case DATA_DIR -> Path.of(karafData.trim(), "kubelix").toString();
                case STORAGE_BACKEND -> "sqlite";
                default -> value;
            };
        };
    }
}
