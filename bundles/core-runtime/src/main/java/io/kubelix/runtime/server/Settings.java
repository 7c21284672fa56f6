package io.kubelix.runtime.server;

import io.kubelix.support.flags.FrameworkProperties;
import org.osgi.framework.BundleContext;

import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Reads one setting the way every Kubelix component does: its OSGi configuration (ConfigAdmin,
 * {@code etc/*.cfg}) wins, then the framework property the launcher sets from its flag
 * ({@code --secure-port} becomes {@code kubelix.secure-port}), then the default (which Karaf derives for some: {@link FrameworkProperties}).
 */
public final class Settings {
    private final Map<String, ?> config;
    private final UnaryOperator<String> frameworkProperty;

    public Settings(Map<String, ?> config, BundleContext context) {
        this.config = config;
        this.frameworkProperty = FrameworkProperties.withContainerDefaults(context::getProperty);
    }

    public String get(String name, String defaultValue) {
        Object v = config.get(name);
        if (v != null && !v.toString().isBlank()) {
            return v.toString().trim();
        }
        String p = frameworkProperty.apply("kubelix." + name);
        return p != null && !p.isBlank() ? p.trim() : defaultValue;
    }

    /** An integer setting in {@code [min, max]}; anything else stops the component with a message naming the setting. */
    public int getInt(String name, int defaultValue, int min, int max) {
        String v = get(name, Integer.toString(defaultValue));
        try {
            int i = Integer.parseInt(v);
            if (i < min || i > max) {
                throw new NumberFormatException();
            }
            return i;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("invalid " + name + " \"" + v + "\": must be an integer from " + min
                    + " to " + max);
        }
    }
}
