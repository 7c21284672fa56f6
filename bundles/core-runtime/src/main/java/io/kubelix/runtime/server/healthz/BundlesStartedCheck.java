package io.kubelix.runtime.server.healthz;

import io.kubelix.api.server.HealthChecker;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.framework.startlevel.FrameworkStartLevel;

/**
 * The {@code bundles-started} readiness check: passes once the OSGi framework has started, that
 * is, reached its beginning start level with every bundle installed for start started (the
 * framework is {@code ACTIVE} only then). Under {@code bin/kubelix} that includes every plugin of
 * {@code plugins/}: FileInstall starts at the plugins' start level and installs and starts the
 * folder's jars in its first scan, before the framework leaves that level, so no plugin is still
 * arriving when the server says it is ready. Asks the framework, not
 * the file system: it holds in any OSGi framework, and in one that started long before Kubelix was
 * installed (a Karaf feature) it passes at once.
 */
public final class BundlesStartedCheck implements HealthChecker {
    private final BundleContext context;

    public BundlesStartedCheck(BundleContext context) {
        this.context = context;
    }

    @Override
    public String name() {
        return "bundles-started";
    }

    @Override
    public void check() {
        Bundle framework = context.getBundle(Constants.SYSTEM_BUNDLE_ID);
        if (framework == null || framework.getState() == Bundle.ACTIVE) {
            return;
        }
        if (framework.getState() != Bundle.STARTING) {
            throw new IllegalStateException("the framework is stopping");
        }
        FrameworkStartLevel level = framework.adapt(FrameworkStartLevel.class);
        String beginning = context.getProperty(Constants.FRAMEWORK_BEGINNING_STARTLEVEL);
        throw new IllegalStateException("the framework is starting its bundles"
                + (level == null ? "" : " (start level " + level.getStartLevel()
                + (beginning == null ? "" : " of " + beginning) + ")"));
    }
}
