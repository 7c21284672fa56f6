package io.kubelix.junit.impl;

import org.apache.felix.framework.FrameworkFactory;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.Constants;
import org.osgi.framework.launch.Framework;
import org.osgi.framework.startlevel.BundleStartLevel;
import org.osgi.framework.wiring.BundleRevision;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;

/**
 * An Apache Felix framework in this JVM with the Kubelix bundles installed at bin/kubelix's start
 * levels. Bundles are installed by reference (Felix reads the jar in place, no copy into its cache),
 * and the framework's URL handlers are off, so that a test JVM's global {@code URL} factory is left
 * alone and several frameworks can run side by side.
 */
public final class EmbeddedFramework {
    /**
     * SPI Fly logs every service provider it registers through java.util.logging, a dozen lines per
     * start; the distribution's logging configuration sets it to WARNING, and so does this unless the
     * tests configured it. Held here because java.util.logging keeps loggers only weakly.
     */
    private static final Logger SPIFLY_LOG = Logger.getLogger("org.apache.aries.spifly");

    static {
        if (SPIFLY_LOG.getLevel() == null) {
            SPIFLY_LOG.setLevel(Level.WARNING);
        }
    }

    private static final String STORAGE = "io.kubelix.storage-memory";

    private final Framework framework;

    private EmbeddedFramework(Framework framework) {
        this.framework = framework;
    }

    /**
     * Starts a framework with the given properties (the {@code kubelix.*} ones included) and the
     * bundles, and returns once the framework has reached its beginning start level.
     *
     * @param cache the framework's storage directory, emptied at start
     */
    public static EmbeddedFramework start(Map<String, String> properties, Path cache, List<Path> bundles)
            throws BundleException {
        Map<String, String> config = new HashMap<>(properties);
        config.put(Constants.FRAMEWORK_STORAGE, cache.toString());
        config.put(Constants.FRAMEWORK_STORAGE_CLEAN, Constants.FRAMEWORK_STORAGE_CLEAN_ONFIRSTINIT);
        config.put(Constants.FRAMEWORK_BEGINNING_STARTLEVEL, Integer.toString(StartLevels.FRAMEWORK));
        config.put("felix.startlevel.bundle", Integer.toString(StartLevels.FRAMEWORK));
        config.put("felix.service.urlhandlers", "false");
        // Felix's classes come from the test class path; without this a bundle that misses a class or resource
        // (a ServiceLoader file, say) would be handed the test class path's copy by Felix's implicit boot delegation.
        config.put("felix.bootdelegation.implicit", "false");

        Framework framework = new FrameworkFactory().newFramework(config);
        // Bundles that start in this thread must not find the test class path through the context class
        // loader (ServiceLoader, Jackson modules): what a bundle sees comes from the framework only.
        Thread thread = Thread.currentThread();
        ClassLoader contextLoader = thread.getContextClassLoader();
        thread.setContextClassLoader(ClassLoader.getPlatformClassLoader());
        try {
            // 1. Init, 2. install every bundle by reference, 3. give each its level, 4. start them, 5. start.
            framework.init();
            BundleContext context = framework.getBundleContext();
            List<Bundle> installed = new ArrayList<>();
            for (Path jar : bundles) {
                installed.add(context.installBundle("reference:" + jar.toUri()));
            }
            for (Bundle bundle : installed) {
                bundle.adapt(BundleStartLevel.class).setStartLevel(StartLevels.of(bundle.getSymbolicName()));
                if (!isFragment(bundle)) {
                    bundle.start();
                }
            }
            framework.start();
        } catch (BundleException | RuntimeException e) {
            stopQuietly(framework);
            throw e;
        } finally {
            thread.setContextClassLoader(contextLoader);
        }
        return new EmbeddedFramework(framework);
    }

    /**
     * Stops the Kubelix bundles, the plugins before the core, and leaves the libraries (Jetty,
     * Jackson, Declarative Services...) running, with every class loaded and compiled, for
     * {@link #startKubelix()}. The memory storage is installed again, so what the stopped server
     * stored (and handed over to the bundle's data area on its way out) is gone.
     */
    public void stopKubelix() throws BundleException {
        List<Bundle> kubelix = kubelixBundles();
        Collections.reverse(kubelix);
        for (Bundle bundle : kubelix) {
            if (!isFragment(bundle)) {
                bundle.stop();
            }
        }
        for (Bundle bundle : kubelix) {
            if (STORAGE.equals(bundle.getSymbolicName())) {
                // Uninstalling deletes the bundle's data area, and with it the objects handed over.
                String location = bundle.getLocation();
                bundle.uninstall();
                Bundle fresh = framework.getBundleContext().installBundle(location);
                fresh.adapt(BundleStartLevel.class).setStartLevel(StartLevels.of(STORAGE));
            }
        }
    }

    /** Starts the Kubelix bundles again after {@link #stopKubelix()}: a new server on the same port and data directory. */
    public void startKubelix() throws BundleException {
        Thread thread = Thread.currentThread();
        ClassLoader contextLoader = thread.getContextClassLoader();
        thread.setContextClassLoader(ClassLoader.getPlatformClassLoader());
        try {
            for (Bundle bundle : kubelixBundles()) {
                if (!isFragment(bundle)) {
                    bundle.start();
                }
            }
        } finally {
            thread.setContextClassLoader(contextLoader);
        }
    }

    /** The Kubelix bundles in the order they start: by start level, then as installed. */
    private List<Bundle> kubelixBundles() {
        return Arrays.stream(framework.getBundleContext().getBundles())
                .filter(b -> b.getSymbolicName() != null && b.getSymbolicName().startsWith("io.kubelix."))
                .sorted(Comparator.comparingInt((Bundle b) -> b.adapt(BundleStartLevel.class).getStartLevel())
                        .thenComparingLong(Bundle::getBundleId))
                .collect(Collectors.toCollection(ArrayList::new));
    }

    /** Bundles that are not active, with their state, for a start-up failure's message. */
    public String inactiveBundles() {
        return Arrays.stream(framework.getBundleContext().getBundles())
                .filter(b -> b.getState() != Bundle.ACTIVE && !isFragment(b))
                .map(b -> b.getSymbolicName() + " (" + state(b.getState()) + ")")
                .collect(Collectors.joining(", "));
    }

    /** Stops the framework and waits for it (and so for every bundle, the server's Jetty among them) to stop. */
    public void stop() throws InterruptedException {
        try {
            framework.stop();
        } catch (BundleException e) {
            throw new IllegalStateException("cannot stop the embedded framework", e);
        }
        framework.waitForStop(60_000);
    }

    private static void stopQuietly(Framework framework) {
        try {
            framework.stop();
            framework.waitForStop(60_000);
        } catch (BundleException | RuntimeException e) {
            // the start failure is what the caller reports
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static boolean isFragment(Bundle bundle) {
        BundleRevision revision = bundle.adapt(BundleRevision.class);
        return revision != null && (revision.getTypes() & BundleRevision.TYPE_FRAGMENT) != 0;
    }

    private static String state(int state) {
        return switch (state) {
            case Bundle.INSTALLED -> "INSTALLED: unresolved";
            case Bundle.RESOLVED -> "RESOLVED: not started";
            case Bundle.STARTING -> "STARTING";
            case Bundle.STOPPING -> "STOPPING";
            default -> Integer.toString(state);
        };
    }
}
