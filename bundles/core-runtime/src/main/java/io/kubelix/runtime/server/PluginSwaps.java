package io.kubelix.runtime.server;

import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.framework.startlevel.BundleStartLevel;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import io.kubelix.runtime.metrics.ServerMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Tells a plugin update from a plugin removal, so a swap goes unnoticed by clients.
 *
 * <p>When a bundle is updated ({@code plugins/} gets a new jar, {@code bundle:update}) or
 * refreshed, the framework stops it <em>transiently</em>: its persistent state stays "started",
 * and the new revision starts right after. Its services go away and come back. A service that
 * goes away while its bundle stops transiently is therefore kept in use (it is "outgoing") until
 * its replacement, the same component from the same bundle, registers, and at most for a grace
 * period (framework property {@code kubelix.plugin-swap-grace-seconds}, default 10; 0 turns swaps off) in case the new revision never comes
 * up. A bundle that is stopped for good or uninstalled records that first, so its services are
 * removed at once, and so are the services of every bundle when the framework stops.
 *
 * <p>An outgoing service is one whose component was deactivated: plugins must keep answering
 * from what they hold until they are garbage (the plugin guide says so).
 */
@Component(service = PluginSwaps.class)
public final class PluginSwaps {
    private static final Logger LOG = LoggerFactory.getLogger(PluginSwaps.class);
    static final int DEFAULT_GRACE_SECONDS = 10;
    /** The service property Declarative Services gives every component's services. */
    private static final String COMPONENT_NAME = "component.name";

    private final Predicate<Map<String, ?>> restarting;
    private final Duration grace;
    /** Names the plugin bundle that registered a service, for metrics. */
    private final java.util.function.Function<Map<String, ?>, String> pluginName;
    private final ServerMetrics metrics;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "kubelix-plugin-swaps");
        t.setDaemon(true);
        return t;
    });

    @Activate
    public PluginSwaps(BundleContext context, @Reference ServerMetrics metrics) {
        this(properties -> restarting(context, properties), Duration.ofSeconds(new Settings(Map.of(), context)
                .getInt("plugin-swap-grace-seconds", DEFAULT_GRACE_SECONDS, 0, 3600)),
                properties -> bundleName(context, properties), metrics);
    }

    /** For tests: {@code restarting} says whether a service's bundle is being swapped. */
    public PluginSwaps(Predicate<Map<String, ?>> restarting, Duration grace) {
        this(restarting, grace, properties -> "", null);
    }

    private PluginSwaps(Predicate<Map<String, ?>> restarting, Duration grace,
                        java.util.function.Function<Map<String, ?>, String> pluginName, ServerMetrics metrics) {
        this.restarting = restarting;
        this.grace = grace;
        this.pluginName = pluginName;
        this.metrics = metrics;
    }

    /**
     * Records that the service with these properties replaced its outgoing revision, which went away
     * at {@code outgoingSinceNanos} ({@link System#nanoTime()}): one plugin update and the time
     * requests waited for it ({@code kubelix_plugin_updates_total}, {@code kubelix_plugin_update_drain_seconds}).
     */
    public void swapped(Map<String, ?> properties, long outgoingSinceNanos) {
        if (metrics != null) {
            metrics.pluginUpdated(pluginName.apply(properties), (System.nanoTime() - outgoingSinceNanos) / 1e9);
        }
    }

    /**
     * The bundle whose stop waits for the request running on this thread: an API group's storage
     * is released only when the requests in it are done, so while one of them runs, its bundle's
     * classes stay loadable and its outgoing services usable.
     */
    private static final ThreadLocal<Long> HELD = new ThreadLocal<>();

    /**
     * Marks the current thread as running a request on a storage of bundle {@code bundleId} until
     * the returned handle is closed. Meanwhile the request uses that bundle's outgoing services
     * instead of waiting for their new revision, which cannot start before the request ends.
     */
    public static Held hold(long bundleId) {
        Long previous = HELD.get();
        HELD.set(bundleId);
        return () -> {
            if (previous == null) {
                HELD.remove();
            } else {
                HELD.set(previous);
            }
        };
    }

    /** Whether the request on this thread holds the bundle that registered a service with these properties. */
    static boolean held(Map<String, ?> properties) {
        Long held = HELD.get();
        return held != null && held.equals(properties.get(Constants.SERVICE_BUNDLEID));
    }

    /** Ends what {@link #hold} began. */
    @FunctionalInterface
    public interface Held extends AutoCloseable {
        @Override
        void close();
    }

    /** Swaps never happen: every service that goes away is removed at once. */
    public static PluginSwaps none() {
        return new PluginSwaps(p -> false, Duration.ZERO);
    }

    @Deactivate
    void deactivate() {
        timer.shutdownNow();
    }

    /** Whether the service with these properties goes away because its bundle is being updated or refreshed. */
    public boolean restarting(Map<String, ?> properties) {
        return !grace.isZero() && restarting.test(properties);
    }

    /**
     * Whether {@code incoming} replaces the outgoing service {@code outgoing}: the same component
     * (or, for a service outside Declarative Services, the same bundle).
     */
    public static boolean replaces(Map<String, ?> incoming, Map<String, ?> outgoing) {
        return Objects.equals(incoming.get(Constants.SERVICE_BUNDLEID), outgoing.get(Constants.SERVICE_BUNDLEID))
                && Objects.equals(incoming.get(COMPONENT_NAME), outgoing.get(COMPONENT_NAME));
    }

    /** Runs {@code expiry} when the grace period of an outgoing service ends. */
    public void afterGrace(Runnable expiry) {
        later(expiry, grace);
    }

    /** Runs {@code task} after {@code delay} on the swap thread; it must not block. */
    public void later(Runnable task, Duration delay) {
        try {
            timer.schedule(task, delay.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            LOG.debug("plugin swap task dropped: shutting down");
        }
    }

    public Duration grace() {
        return grace;
    }

    private static String bundleName(BundleContext context, Map<String, ?> properties) {
        Bundle bundle = properties.get(Constants.SERVICE_BUNDLEID) instanceof Long id ? context.getBundle(id) : null;
        return bundle == null ? "" : String.valueOf(bundle.getSymbolicName());
    }

    private static boolean restarting(BundleContext context, Map<String, ?> properties) {
        if (!(properties.get(Constants.SERVICE_BUNDLEID) instanceof Long id)) {
            return false;
        }
        Bundle bundle = context.getBundle(id);
        if (bundle == null || bundle.getState() != Bundle.STOPPING) {
            return false;
        }
        // The framework stopping stops every bundle without touching their persistent state: that is
        // no update, and nothing will come back to take their place.
        Bundle framework = context.getBundle(Constants.SYSTEM_BUNDLE_ID);
        if (framework != null && framework.getState() == Bundle.STOPPING) {
            return false;
        }
        BundleStartLevel startLevel = bundle.adapt(BundleStartLevel.class);
        return startLevel != null && startLevel.isPersistentlyStarted();
    }
}
