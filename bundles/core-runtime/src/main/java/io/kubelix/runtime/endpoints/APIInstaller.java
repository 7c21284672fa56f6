package io.kubelix.runtime.endpoints;

import io.kubelix.api.registry.APIGroupInfo;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.RESTStorageProvider;
import io.kubelix.api.schema.GroupVersion;
import io.kubelix.runtime.plugins.ProvidedResource;
import io.kubelix.runtime.server.Lifecycle;
import io.kubelix.runtime.server.PluginSwaps;
import io.kubelix.runtime.server.RankedServices;
import org.osgi.framework.Constants;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps the installed API groups and publishes the RouteTable built from them. When several
 * providers serve the same group, version and resource, the one with the higher ranking (then
 * the older service) serves it; the others are reported as shadowed.
 *
 * <p>A provider whose bundle is being updated keeps its routes (and its place in discovery) until
 * its new revision is installed; requests that arrive meanwhile wait for the new revision, which
 * takes over in one table swap. The old storages finish the requests they had (at most
 * {@link #DRAIN} long) and are destroyed. Open watches are not in those requests: they stream
 * from the watch cache, which core-runtime keeps across the swap. When a resource stops being
 * served for good, its open watches end.
 */
final class APIInstaller {
    private static final Logger LOG = LoggerFactory.getLogger(APIInstaller.class);
    static final Duration DRAIN = Duration.ofSeconds(30);
    /** How long a stopping provider's bundle waits for the requests running on it. */
    static final Duration STOP_DRAIN = Duration.ofSeconds(5);
    private static final Duration DRAIN_POLL = Duration.ofMillis(10);

    private static final class Installed {
        final RESTStorageProvider provider;
        final String name;
        final APIGroupInfo info;
        final Map<String, ?> properties;
        final int ranking;
        final long id;
        final InFlight inFlight;
        boolean outgoing;
        /** When it went outgoing ({@link System#nanoTime()}). */
        long outgoingSince;

        Installed(RESTStorageProvider provider, String name, APIGroupInfo info, Map<String, ?> properties) {
            this.provider = provider;
            this.name = name;
            this.info = info;
            this.properties = Map.copyOf(properties);
            this.ranking = RankedServices.ranking(properties);
            this.id = RankedServices.id(properties);
            this.inFlight = new InFlight(properties.get(Constants.SERVICE_BUNDLEID) instanceof Long b ? b : -1);
        }

        String group() {
            return info.groupName().isEmpty() ? "core" : info.groupName();
        }
    }

    private final PluginSwaps swaps;
    private final List<Installed> installed = new ArrayList<>();
    private volatile RouteTable routes = RouteTable.EMPTY;
    /** Every provider's resources, served or shadowed, for the plugin status. */
    private volatile List<ProvidedResource> provided = List.of();
    /** The open watches per served resource path ("group/version/resource"), each with how to end it. */
    private final Map<String, Set<Runnable>> watches = new ConcurrentHashMap<>();
    /** Told after every swap of the route table. */
    private final List<Runnable> listeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    APIInstaller() {
        this(PluginSwaps.none());
    }

    APIInstaller(PluginSwaps swaps) {
        this.swaps = swaps;
    }

    RouteTable routes() {
        return routes;
    }

    /** Runs {@code listener} after every swap of the route table (it must not block); returns what removes it. */
    Runnable onChange(Runnable listener) {
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }

    List<ProvidedResource> provided() {
        return provided;
    }

    synchronized void install(RESTStorageProvider provider, String name, APIGroupInfo info, Map<String, ?> props) {
        List<Installed> replaced = installed.stream()
                .filter(i -> i.outgoing && PluginSwaps.replaces(props, i.properties)).toList();
        installed.removeAll(replaced);
        installed.add(new Installed(provider, name, info, props));
        rebuild();
        info.versionedResourcesStorageMap().forEach((v, resources) -> LOG.info("installed {} {} from {}: {}",
                info.groupName().isEmpty() ? "core" : info.groupName(), v, name, String.join(", ", resources.keySet())));
        for (Installed old : replaced) {
            LOG.info("API group {} from {}: switched to the new revision", old.group(), old.name);
            swaps.swapped(props, old.outgoingSince);
            retire(old);
        }
    }

    /** Uninstalls at once: for providers known to be gone for good. */
    void uninstall(RESTStorageProvider provider) {
        uninstall(provider, Map.of());
    }

    /**
     * Uninstalls a provider whose service went away: at once, or, when its bundle is being updated,
     * when its new revision is installed (or the swap grace period ends). Either way it returns only
     * when the requests running on the provider's storages have finished (at most {@link #STOP_DRAIN}):
     * the provider's bundle is stopping, and the refresh that follows may discard its class loader,
     * which a running request could still need.
     */
    void uninstall(RESTStorageProvider provider, Map<String, ?> props) {
        List<InFlight> running = markGone(provider, props);
        long deadline = System.nanoTime() + STOP_DRAIN.toNanos();
        for (InFlight f : running) {
            while (!f.idle() && System.nanoTime() < deadline) {
                try {
                    Thread.sleep(DRAIN_POLL.toMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            if (!f.idle()) {
                LOG.warn("{} requests still running on a stopping API group after {} s", f.active(), STOP_DRAIN.toSeconds());
            }
        }
    }

    private synchronized List<InFlight> markGone(RESTStorageProvider provider, Map<String, ?> props) {
        List<Installed> gone = installed.stream().filter(i -> i.provider == provider && !i.outgoing).toList();
        if (gone.isEmpty()) {
            return List.of();
        }
        if (swaps.restarting(props)) {
            for (Installed i : gone) {
                i.outgoing = true;
                i.outgoingSince = System.nanoTime();
                i.inFlight.outgoing();
                LOG.info("API group {} from {}: being updated; it serves until its new revision is installed",
                        i.group(), i.name);
                swaps.afterGrace(() -> expire(i));
            }
        } else {
            remove(gone);
        }
        return gone.stream().map(i -> i.inFlight).toList();
    }

    private synchronized void expire(Installed i) {
        if (installed.contains(i)) {
            LOG.warn("API group {} from {}: no new revision within {} s of its update; uninstalled", i.group(), i.name,
                    swaps.grace().toSeconds());
            remove(List.of(i));
        }
    }

    private void remove(List<Installed> gone) {
        installed.removeAll(gone);
        rebuild();
        for (Installed i : gone) {
            Lifecycle.gone(LOG, "uninstalled API group {} from {}", i.group(), i.name);
            retire(i);
        }
    }

    /**
     * Waits until the provider behind {@code inFlight}, which is being updated, is replaced or gone
     * (at most the swap grace period), and returns the routes then.
     */
    synchronized RouteTable awaitSwap(InFlight inFlight) throws InterruptedException {
        long deadline = System.nanoTime() + swaps.grace().toNanos() + DRAIN_POLL.toNanos();
        while (!inFlight.retired()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            wait(Math.max(1, left / 1_000_000));
        }
        return routes;
    }

    /** The storage serving a path, and the requests in flight on it that this one has entered (null: not entered). */
    record Entered(RESTStorage storage, InFlight inFlight) {
    }

    /**
     * Looks up the storage serving {@code path} and, when {@code enter}, enters the requests in
     * flight on it. A resource whose bundle is being updated waits for the new revision; during the
     * switch the old storage finishes what it has, and a caller that finds it retired looks again.
     * A caller enters, then checks that the provider is still not being updated: the update marks it
     * outgoing, then waits for the requests in it, so either the caller sees the mark and waits for the
     * new revision, or the update waits for the caller (the old revision's classes may be gone once
     * the update returns). Without {@code enter} (a watch, which streams from the watch cache that
     * outlives a swap) it only waits out an update in progress.
     */
    Entered enter(GroupVersion gv, String path, boolean enter) throws InterruptedException {
        RouteTable routes = routes();
        RESTStorage storage = routes.lookup(gv, path);
        InFlight inFlight = storage == null ? null : routes.inFlight(storage);
        while (inFlight != null) {
            if (!inFlight.isOutgoing()) {
                if (!enter) {
                    return new Entered(storage, null);
                }
                if (inFlight.enter()) {
                    if (!inFlight.isOutgoing()) {
                        break;
                    }
                    inFlight.exit();
                }
            }
            if (inFlight.isOutgoing() && !inFlight.retired()) {
                routes = awaitSwap(inFlight);
            } else {
                routes = routes();
            }
            storage = routes.lookup(gv, path);
            inFlight = storage == null ? null : routes.inFlight(storage);
        }
        return new Entered(storage, inFlight);
    }

    /**
     * Registers an open watch on a served resource path, with how to end it; returns how to
     * deregister it. A watch whose resource is no longer served is ended at once.
     */
    Runnable trackWatch(GroupVersion gv, String resourcePath, Runnable end) {
        String key = key(gv.group(), gv.version(), resourcePath);
        Set<Runnable> open = watches.computeIfAbsent(key, k -> ConcurrentHashMap.newKeySet());
        open.add(end);
        // Added before the check, so a rebuild that removes the resource meanwhile either sees it or is seen.
        if (routes.lookup(gv, resourcePath) == null && open.remove(end)) {
            end.run();
        }
        return () -> open.remove(end);
    }

    /**
     * Ends every open watch, as when the server shuts down, and waits (at most {@code wait}) until
     * each has finished its stream, so no connection is closed under a watch's last bytes; returns
     * how many there were.
     */
    int endWatches(Duration wait) {
        List<Runnable> ends = new ArrayList<>();
        watches.values().forEach(ends::addAll);
        ends.forEach(Runnable::run);
        // A finished stream deregisters itself.
        long deadline = System.nanoTime() + wait.toNanos();
        while (watches.values().stream().anyMatch(open -> !open.isEmpty()) && System.nanoTime() < deadline) {
            try {
                Thread.sleep(DRAIN_POLL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return ends.size();
    }

    /** Stops new requests on a provider's storages, waits for those in flight, then destroys the storages. */
    private void retire(Installed i) {
        i.inFlight.retire();
        destroyWhenDrained(i, System.nanoTime() + DRAIN.toNanos());
    }

    private void destroyWhenDrained(Installed i, long deadline) {
        if (!i.inFlight.idle() && System.nanoTime() < deadline) {
            swaps.later(() -> destroyWhenDrained(i, deadline), DRAIN_POLL);
            return;
        }
        if (!i.inFlight.idle()) {
            LOG.warn("API group {} from {}: {} requests still running after {} s; releasing its storage anyway",
                    i.group(), i.name, i.inFlight.active(), DRAIN.toSeconds());
        }
        i.info.versionedResourcesStorageMap().values().forEach(m -> m.values().forEach(RESTStorage::destroy));
    }

    /** Resolves conflicts per group/version/resource and swaps in the new table. */
    private void rebuild() {
        List<Installed> ordered = new ArrayList<>(installed);
        ordered.sort(Comparator.comparingInt((Installed i) -> -i.ranking).thenComparingLong(i -> i.id));
        Map<String, Installed> served = new HashMap<>();
        List<APIGroupInfo> winners = new ArrayList<>();
        Map<RESTStorage, InFlight> owners = new IdentityHashMap<>();
        List<ProvidedResource> report = new ArrayList<>();
        for (Installed i : ordered) {
            Map<String, Map<String, RESTStorage>> kept = new LinkedHashMap<>();
            i.info.versionedResourcesStorageMap().forEach((v, resources) -> {
                Map<String, RESTStorage> keep = new LinkedHashMap<>();
                resources.forEach((r, s) -> {
                    String gvr = key(i.info.groupName(), v, r);
                    Installed winner = served.putIfAbsent(gvr, i);
                    report.add(new ProvidedResource(i.info.groupName(), v, r, s.kind(), s.namespaced(), i.name,
                            i.id, i.ranking, winner == null ? -1 : winner.id));
                    if (winner == null) {
                        keep.put(r, s);
                        owners.put(s, i.inFlight);
                    } else {
                        LOG.warn("conflict: {} from {} (ranking {}) is shadowed by a higher-ranked provider", gvr,
                                i.name, i.ranking);
                    }
                });
                kept.put(v, keep);
            });
            winners.add(new APIGroupInfo(i.info.groupName(), i.info.prioritizedVersions(), kept));
        }
        routes = RouteTable.of(winners, owners);
        provided = List.copyOf(report);
        endWatchesNotIn(served.keySet());
        notifyAll();
        for (Runnable listener : listeners) {
            try {
                listener.run();
            } catch (RuntimeException e) {
                LOG.warn("a listener of the served resources failed: {}", e.toString(), e);
            }
        }
    }

    private void endWatchesNotIn(Set<String> served) {
        watches.forEach((key, open) -> {
            if (!served.contains(key)) {
                for (Runnable end : List.copyOf(open)) {
                    if (open.remove(end)) {
                        end.run();
                    }
                }
            }
        });
    }

    private static String key(String group, String version, String resourcePath) {
        return group + "/" + version + "/" + resourcePath;
    }
}
