package io.kubelix.resource.core.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.informer.SharedIndexInformer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * kube's service IP and node port repair controllers (pkg/registry/core/service/ipallocator/controller,
 * portallocator/controller): on start and then every {@link #INTERVAL}, the allocation records are
 * compared with the services, read from the services informer's cache rather than listed from
 * storage. An item a service holds but the record lacks (a record from before a range change, or
 * lost) is marked again; an item the record holds but no service uses (a server that died between
 * allocating and writing) is released once it has been seen unused in {@link #LEAK_PASSES} passes,
 * so a create that is still in flight keeps what it took. A pass runs only on a cache that has
 * reached the records' revision (else it could take a service deleted since for one still holding
 * its items); until then it waits, while the informer syncs or until its next bookmark.
 */
final class ServiceRepair {
    static final Duration INTERVAL = Duration.ofMinutes(3);
    static final int LEAK_PASSES = 3;
    private static final Logger LOG = LoggerFactory.getLogger(ServiceRepair.class);

    /**
     * How long a pass waits for the cache to reach the records' revision: an idle informer learns the
     * storage's revision from a bookmark, which comes every minute or two.
     */
    static final Duration CURRENT_WAIT = Duration.ofSeconds(150);
    private static final Duration RETRY = Duration.ofSeconds(1);

    private final SharedIndexInformer services;
    private final ServiceAllocators allocators;
    private final Map<Integer, Integer> leakedIPs = new HashMap<>();
    private final Map<Integer, Integer> leakedPorts = new HashMap<>();
    private ScheduledFuture<?> task;
    private volatile boolean stopped;

    /** @param services the services' informer; null (no framework, in tests) runs no pass */
    ServiceRepair(SharedIndexInformer services, ServiceAllocators allocators) {
        this.services = services;
        this.allocators = allocators;
    }

    /** Runs a pass now and every {@link #INTERVAL} on {@code executor}. */
    synchronized void start(ScheduledExecutorService executor) {
        if (services != null) {
            task = executor.scheduleWithFixedDelay(this::runLogged, 0, INTERVAL.toSeconds(), TimeUnit.SECONDS);
        }
    }

    /**
     * Cancels the passes to come and waits for a running one: no pass runs after this returns, not
     * even one the executor had already begun to run (the records belong to the next revision of
     * the plugin then).
     */
    synchronized void stop() {
        stopped = true;
        if (task != null) {
            task.cancel(false);
            task = null;
        }
    }

    /** One pass, retried (outside the lock, so stop() is not held up) while the cache is behind the records. */
    private void runLogged() {
        long deadline = System.nanoTime() + CURRENT_WAIT.toNanos();
        try {
            while (!runOnce() && !stopped) {
                if (System.nanoTime() - deadline > 0) {
                    LOG.info("service allocation repair: the services informer did not reach the allocation records' "
                            + "revision in {} s; checking again next pass", CURRENT_WAIT.toSeconds());
                    return;
                }
                Thread.sleep(RETRY.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.warn("service allocation repair: could not check the allocations: {}", e.toString());
        }
    }

    /**
     * One pass over both records. The records are read before the services, and written only if
     * unchanged since, so an allocation or release made meanwhile is never undone (the next pass
     * sees it). Returns false, having done nothing, while the informer has not synced or has not
     * reached the records' revision.
     */
    synchronized boolean runOnce() {
        if (stopped || services == null) {
            return true;
        }
        // Nothing to compare the records with before the informer has listed the services (while the server
        // starts, storage may not even be there yet): wait for it rather than fail reading the records.
        if (!services.hasSynced()) {
            return false;
        }
        RangeAllocator.Snapshot ipRecord = allocators.ipAllocator().snapshot();
        RangeAllocator.Snapshot portRecord = allocators.nodePortAllocator().snapshot();
        if (!services.hasSynced() || revision(services.lastSyncResourceVersion())
                < Math.max(revision(ipRecord.resourceVersion()), revision(portRecord.resourceVersion()))) {
            return false;
        }
        BitSet usedIPs = new BitSet();
        BitSet usedPorts = new BitSet();
        NodePortRange ports = allocators.portRange();
        for (ObjectNode svc : services.lister().list()) {
            JsonNode spec = svc.path("spec");
            if (!ServiceDefaults.EXTERNAL_NAME.equals(spec.path("type").asText())) {
                for (String ip : ServiceAllocators.clusterIPs(spec)) {
                    int offset = allocators.cidr().offsetOf(ip);
                    if (offset >= 0) {
                        usedIPs.set(offset);
                    }
                }
            }
            for (int p : ServiceAllocators.nodePortsOf(spec, true)) {
                if (ports.contains(p)) {
                    usedPorts.set(p - ports.base());
                }
            }
        }
        reconcile(allocators.ipAllocator(), ipRecord, usedIPs, leakedIPs, "cluster IP", allocators.cidr()::addressAt);
        reconcile(allocators.nodePortAllocator(), portRecord, usedPorts, leakedPorts, "node port",
                o -> String.valueOf(ports.base() + o));
        return true;
    }

    private static long revision(String resourceVersion) {
        try {
            return resourceVersion == null || resourceVersion.isEmpty() ? 0 : Long.parseLong(resourceVersion);
        } catch (NumberFormatException e) {
            return Long.MAX_VALUE; // not ours to compare: never taken as reached
        }
    }

    private static void reconcile(RangeAllocator allocator, RangeAllocator.Snapshot record, BitSet used,
                                  Map<Integer, Integer> leaks, String what, IntFunction<String> label) {
        BitSet recorded = record.bits();
        BitSet unused = (BitSet) recorded.clone();
        unused.andNot(used);
        leaks.keySet().removeIf(item -> !unused.get(item));
        BitSet release = new BitSet();
        unused.stream().forEach(item -> {
            if (leaks.merge(item, 1, Integer::sum) >= LEAK_PASSES) {
                release.set(item);
            }
        });
        BitSet missing = (BitSet) used.clone();
        missing.andNot(recorded);
        if (missing.isEmpty() && release.isEmpty()) {
            return;
        }
        BitSet repaired = (BitSet) recorded.clone();
        repaired.or(used);
        repaired.andNot(release);
        if (!allocator.replace(record, repaired)) {
            LOG.debug("service allocation repair: the {} record changed during the pass; checking again next pass", what);
            return;
        }
        release.stream().forEach(leaks::remove);
        missing.stream().forEach(item -> LOG.info("service allocation repair: {} {} is used by a service but was not "
                + "recorded as allocated; recorded it", what, label.apply(item)));
        release.stream().forEach(item -> LOG.info("service allocation repair: {} {} was allocated but no service uses it; "
                + "released it", what, label.apply(item)));
    }
}
