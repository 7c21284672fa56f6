package io.kubelix.runtime.controller.bootstrap;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.api.informer.ResourceEventHandlerRegistration;
import io.kubelix.api.informer.SharedIndexInformer;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.api.server.PostStartHook;
import io.kubelix.runtime.controller.EventHandlers;
import io.kubelix.runtime.controller.QueueWorkers;
import io.kubelix.runtime.controller.ServedObjects;
import io.kubelix.runtime.controller.ServedResources;
import io.kubelix.runtime.controller.informer.InformerFactory;
import io.kubelix.runtime.controller.workqueue.WorkQueue;
import io.kubelix.runtime.server.GenericAPIServer;
import io.kubelix.runtime.server.Settings;
import io.kubelix.runtime.storage.StorageFactory;
import io.kubelix.support.net.IP;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.function.UnaryOperator;

/**
 * kube-apiserver's {@code bootstrap-controller}: the {@code kubernetes} Service in {@code default}
 * (ClusterIP, the first address of {@code --service-cluster-ip-range}, port 443 named
 * {@code https} to the secure port), its Endpoints and its EndpointSlice pointing at
 * {@code --advertise-address} (default: {@code --bind-address}, or this host's first address when
 * that is unspecified or loopback, as kube's) and {@code --secure-port}. A loopback advertise address
 * cannot be an endpoint (kube's validation refuses it): then only the Service is kept.
 *
 * <p>Servers sharing one storage share these objects, as kube-apiserver's lease endpoint reconciler
 * ({@code --endpoint-reconciler-type=lease}, the default) shares them: every {@link #INTERVAL} each server
 * renews its record in {@link MasterLeases} and writes the Endpoints and EndpointSlice to list the IPs
 * of all live leases, sorted, with its own port, writing only when they differ; stopping, it removes
 * its lease and its IP. {@code none} leaves the Endpoints and EndpointSlice alone. As kube's, changes
 * by others are put right on that periodic pass only, so servers that disagree (two secure ports)
 * take turns at the interval instead of answering each other's writes. Informer events only create
 * what was deleted; the served resources changing (a plugin came) runs a pass at once. The hook
 * completes after the first pass; the EndpointSlice is kept only while endpointslices are served.
 */
@Component(service = {PostStartHook.class, KubernetesServiceController.class},
        configurationPid = {GenericAPIServer.PID, GenericAPIServer.SERVICES_PID},
        configurationPolicy = ConfigurationPolicy.OPTIONAL)
public final class KubernetesServiceController implements PostStartHook {
    static final GroupVersionResource SERVICES = new GroupVersionResource("", "v1", "services");
    static final GroupVersionResource ENDPOINTS = new GroupVersionResource("", "v1", "endpoints");
    static final GroupVersionResource ENDPOINT_SLICES = new GroupVersionResource("discovery.k8s.io", "v1",
            "endpointslices");
    public static final String DEFAULT_SERVICE_CIDR = "10.0.0.0/24";
    /** kube's EndpointInterval: how often the lease is renewed and the objects are checked. */
    static final Duration INTERVAL = Duration.ofSeconds(10);
    /** kube's masterEndpointReconcileTTL: how long a lease not renewed keeps its IP listed. */
    static final Duration LEASE_TTL = Duration.ofSeconds(15);
    private static final Logger LOG = LoggerFactory.getLogger(KubernetesServiceController.class);
    private static final String KEY = KubernetesService.NAMESPACE + "/" + KubernetesService.NAME;
    /** The queue key of a full pass, which also renews the lease and puts changed objects right. */
    private static final String RESYNC = "resync";
    /** The queue key of the periodic full pass; only it queues itself again, so there is one timer. */
    private static final String TICK = "tick";

    private final KubernetesService desired;
    private final String clusterIP;
    private final MasterLeases leases;
    private final Duration interval;
    private final ServedObjects objects;
    private final SharedIndexInformer services;
    private final SharedIndexInformer endpoints;
    private final SharedIndexInformer endpointSlices;
    private final WorkQueue<String> queue = WorkQueue.withDefaultRateLimiter("bootstrap-controller");
    private final QueueWorkers<String> workers;
    private final List<ResourceEventHandlerRegistration> registrations = new ArrayList<>();
    private final Runnable unsubscribe;
    private boolean synced;
    private boolean stopped;

    @Activate
    public KubernetesServiceController(Map<String, Object> config, BundleContext context,
                                       @Reference InformerFactory informers, @Reference ServedResources served,
                                       @Reference StorageFactory storage) {
        this(new Settings(config, context), informers, served, storage);
    }

    private KubernetesServiceController(Settings settings, InformerFactory informers, ServedResources served,
                                        StorageFactory storage) {
        this(desired(settings), KubernetesService.firstAddress(settings.get("service-cluster-ip-range",
                DEFAULT_SERVICE_CIDR)), leases(settings, storage), INTERVAL, informers, served);
    }

    /**
     * @param leases   the lease records, or null for {@code --endpoint-reconciler-type=none}
     * @param interval how often a pass runs
     */
    KubernetesServiceController(KubernetesService desired, String clusterIP, MasterLeases leases, Duration interval,
                                InformerFactory informers, ServedResources served) {
        this.desired = desired;
        this.clusterIP = clusterIP;
        this.leases = leases;
        this.interval = interval;
        this.objects = new ServedObjects(served);
        this.services = informers.forResource(SERVICES);
        this.endpoints = informers.forResource(ENDPOINTS);
        this.endpointSlices = informers.forResource(ENDPOINT_SLICES);
        this.workers = new QueueWorkers<>("bootstrap-controller", queue, 1, this::sync);
        for (SharedIndexInformer informer : List.of(services, endpoints, endpointSlices)) {
            registrations.add(informer.addEventHandler(EventHandlers.onAnyChange(this::check, false)));
        }
        // Its resources' plugins arriving (at start, or updated) or namespace default appearing.
        unsubscribe = served.onChange(() -> queue.add(RESYNC));
        registrations.add(informers.forResource(SystemNamespacesController.NAMESPACES)
                .addEventHandler(EventHandlers.onAnyChange(this::check, false)));
        if (desired.publishable()) {
            LOG.info("bootstrap-controller: the kubernetes service points at {}:{}", desired.address(), desired.port());
        } else {
            LOG.warn("bootstrap-controller: the advertise address {} is loopback, which an endpoint may not be: the "
                    + "kubernetes service gets no endpoints (set --advertise-address)", desired.address());
        }
        queue.add(TICK);
        workers.start();
    }

    @Deactivate
    void deactivate() {
        unsubscribe.run();
        registrations.forEach(ResourceEventHandlerRegistration::close);
        stop();
    }

    /**
     * Stops the passes, then, as kube's RemoveEndpoints, takes this server's lease and IP away; once.
     * The server calls it before it stops (as kube's pre-shutdown hook), while storage is still there.
     */
    void stop() {
        synchronized (this) {
            if (stopped) {
                return;
            }
            stopped = true;
        }
        workers.stop();
        if (leases == null || !desired.publishable()) {
            return;
        }
        try {
            leases.remove(desired.address());
            SortedSet<String> live = leases.list();
            live.remove(desired.address());
            if (live.isEmpty()) {
                // kube refuses to erase every endpoint: the last server leaves its own, as when it dies.
                return;
            }
            if (objects.served(ENDPOINTS)) {
                update(ENDPOINTS, cur -> desired.endpointsUpdate(cur, live));
            }
            if (objects.served(ENDPOINT_SLICES)) {
                update(ENDPOINT_SLICES, cur -> desired.endpointSliceUpdate(cur, live));
            }
        } catch (RuntimeException e) {
            // Storage may be going away too; the lease then expires after its TTL.
            LOG.warn("bootstrap-controller: cannot remove this server's endpoint {}: {}", desired.address(),
                    e.toString());
        }
    }

    @Override
    public String name() {
        return "bootstrap-controller";
    }

    /** Waits until the service and its endpoints exist as they should. */
    @Override
    public synchronized void run() throws InterruptedException {
        while (!synced) {
            wait();
        }
    }

    /**
     * One pass: the periodic one ({@link #RESYNC}) renews the lease and puts all three objects right;
     * one for an informer event only creates what is missing, so no server answers another's write.
     */
    private void sync(String key) {
        pass(!key.equals(KEY));
        // After success only: a failed pass is retried with back-off, which then continues the timer.
        if (key.equals(TICK)) {
            queue.addAfter(TICK, interval);
        }
    }

    private void pass(boolean resync) {
        if (!objects.served(SERVICES) || !objects.served(ENDPOINTS)) {
            // Not a failure: the plugin serving them is not there yet, and its arrival queues a pass.
            LOG.debug("bootstrap-controller: waiting for services and endpoints to be served");
            return;
        }
        ensureService(resync);
        // A loopback address has no endpoints (logged at start), and none leaves them to someone else.
        if (desired.publishable() && leases != null) {
            SortedSet<String> ips;
            if (resync) {
                leases.update(desired.address());
                ips = leases.list();
                // Our own lease was just written; listed even if the storage lags (a cache) or the clock jumped.
                ips.add(desired.address());
            } else if (endpoints.getByKey(KEY) != null
                    && (!objects.served(ENDPOINT_SLICES) || endpointSlices.getByKey(KEY) != null)) {
                return;
            } else {
                ips = leases.list();
                ips.add(desired.address());
            }
            ensure(ENDPOINTS, endpoints, desired.endpoints(ips), cur -> desired.endpointsUpdate(cur, ips), resync);
            if (objects.served(ENDPOINT_SLICES)) {
                ensure(ENDPOINT_SLICES, endpointSlices, desired.endpointSlice(ips),
                        cur -> desired.endpointSliceUpdate(cur, ips), resync);
            }
        }
        if (resync) {
            synchronized (this) {
                if (!synced) {
                    synced = true;
                    notifyAll();
                }
            }
        }
    }

    private void ensureService(boolean resync) {
        if (services.getByKey(KEY) == null) {
            try {
                create(SERVICES, desired.service(clusterIP), desired::serviceUpdate);
                return;
            } catch (StatusException e) {
                if (e.reason() != StatusReason.INVALID) {
                    throw e;
                }
                if (inStorage(SERVICES)) {
                    // An earlier pass created it and the cache has not seen it yet: the IP is taken by the service itself.
                    if (resync) {
                        update(SERVICES, desired::serviceUpdate);
                    }
                    return;
                }
                // The range in use is not this server's (a server sharing the storage allocates from another).
                LOG.warn("bootstrap-controller: the kubernetes service cannot have cluster IP {} ({}); the "
                        + "allocator chooses one", clusterIP, e.getMessage());
                create(SERVICES, desired.service(null), desired::serviceUpdate);
                return;
            }
        }
        if (resync) {
            update(SERVICES, desired::serviceUpdate);
        }
    }

    /** Whether the object exists in storage (the informer's cache may be behind). */
    private boolean inStorage(GroupVersionResource resource) {
        try {
            objects.get(resource, KubernetesService.NAMESPACE, KubernetesService.NAME);
            return true;
        } catch (StatusException e) {
            if (e.reason() == StatusReason.NOT_FOUND) {
                return false;
            }
            throw e;
        }
    }

    private void ensure(GroupVersionResource resource, SharedIndexInformer cache, ObjectNode wanted,
                        UnaryOperator<ObjectNode> fix, boolean resync) {
        if (cache.getByKey(KEY) == null) {
            create(resource, wanted, fix);
        } else if (resync) {
            update(resource, fix);
        }
    }

    private void create(GroupVersionResource resource, ObjectNode obj, UnaryOperator<ObjectNode> fix) {
        try {
            objects.create(resource, obj);
            LOG.info("bootstrap-controller: created {} {}", ServedObjects.describe(resource), KEY);
        } catch (StatusException e) {
            if (e.reason() != StatusReason.ALREADY_EXISTS) {
                throw e;
            }
            // Created meanwhile (the cache is behind, or another server was first): check it against what it should be.
            update(resource, fix);
        }
    }

    /** Puts the fields the controller owns right; writes nothing when they are. */
    private void update(GroupVersionResource resource, UnaryOperator<ObjectNode> fix) {
        boolean[] changed = {false};
        try {
            objects.update(resource, KubernetesService.NAMESPACE, KubernetesService.NAME, current -> {
                ObjectNode next = fix.apply(current);
                changed[0] = next != null;
                return next == null ? current : next;
            });
        } catch (StatusException e) {
            if (e.reason() != StatusReason.NOT_FOUND) {
                throw e;
            }
            // Deleted meanwhile: its deletion event queues the key again.
            return;
        }
        if (changed[0]) {
            LOG.info("bootstrap-controller: {} {} differed from what this server publishes; updated",
                    ServedObjects.describe(resource), KEY);
        }
    }

    /** Queues a creating pass for any event of default/kubernetes, or of namespace default. */
    private void check(ObjectNode obj) {
        String key = SharedIndexInformer.keyOf(obj);
        if (key.equals(KEY) || key.equals(KubernetesService.NAMESPACE)) {
            queue.add(KEY);
        }
    }

    /** kube's {@code --endpoint-reconciler-type}: {@code lease} (the default) or {@code none}. */
    private static MasterLeases leases(Settings settings, StorageFactory storage) {
        String type = settings.get("endpoint-reconciler-type", "lease");
        return switch (type) {
            case "lease" -> new MasterLeases(storage.rawStorageFor(MasterLeases.PREFIX), LEASE_TTL, Clock.systemUTC());
            case "none" -> null;
            default -> throw new IllegalArgumentException("invalid endpoint-reconciler-type \"" + type
                    + "\": must be lease or none");
        };
    }

    private static KubernetesService desired(Settings settings) {
        int port = settings.getInt("secure-port", 6443, 1, 65535);
        String bind = settings.get("bind-address", "127.0.0.1");
        String advertise = settings.get("advertise-address", null);
        return new KubernetesService(advertiseAddress(advertise, bind), port);
    }

    /**
     * kube's advertise address (DefaultAdvertiseAddress): the flag when given; else the bind address,
     * unless it is unspecified ({@code 0.0.0.0}, {@code ::}) or loopback, when the first address of
     * this host's first interface that is up and not loopback stands in (kube's ChooseHostInterface),
     * or loopback when there is none.
     */
    public static String advertiseAddress(String advertise, String bind) {
        if (advertise != null) {
            IP a = literal(advertise, "advertise-address");
            if (a.isUnspecified()) {
                throw new IllegalArgumentException("invalid advertise-address \"" + advertise
                        + "\": must be an address clients can reach, not unspecified");
            }
            return a.toString();
        }
        IP b = literal(bind, "bind-address");
        if (!b.isUnspecified() && !b.isLoopback()) {
            return b.toString();
        }
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (nic.isUp() && !nic.isLoopback()) {
                    for (InetAddress a : Collections.list(nic.getInetAddresses())) {
                        if (a instanceof Inet4Address && !a.isLinkLocalAddress() && !a.isLoopbackAddress()) {
                            return a.getHostAddress();
                        }
                    }
                }
            }
        } catch (SocketException e) {
            LOG.warn("bootstrap-controller: cannot list network interfaces: {}", e.toString());
        }
        return b.isLoopback() ? b.toString() : "127.0.0.1";
    }

    private static IP literal(String value, String setting) {
        IP ip = IP.parseIPSloppy(value);
        if (ip == null) {
            throw new IllegalArgumentException("invalid " + setting + " \"" + value + "\": must be an IP address");
        }
        return ip;
    }
}
