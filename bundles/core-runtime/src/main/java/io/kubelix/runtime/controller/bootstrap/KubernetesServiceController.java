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
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * kube-apiserver's {@code bootstrap-controller}: the {@code kubernetes} Service in {@code default}
 * (ClusterIP, the first address of {@code --service-cluster-ip-range}, port 443 named
 * {@code https} to the secure port), its Endpoints and its EndpointSlice pointing at
 * {@code --advertise-address} (default: {@code --bind-address}, or this host's first address when
 * that is unspecified or loopback, as kube's) and {@code --secure-port}. A loopback advertise address
 * cannot be an endpoint (kube's validation refuses it): then only the Service is kept. Driven by informers: any change or deletion of
 * one of them puts it right again; the served resources changing (a plugin came) retries at once.
 * The hook completes once all exist; the EndpointSlice is kept only while endpointslices are served.
 */
@Component(service = PostStartHook.class, configurationPid = GenericAPIServer.PID,
        configurationPolicy = ConfigurationPolicy.OPTIONAL)
public final class KubernetesServiceController implements PostStartHook {
    static final GroupVersionResource SERVICES = new GroupVersionResource("", "v1", "services");
    static final GroupVersionResource ENDPOINTS = new GroupVersionResource("", "v1", "endpoints");
    static final GroupVersionResource ENDPOINT_SLICES = new GroupVersionResource("discovery.k8s.io", "v1",
            "endpointslices");
    public static final String DEFAULT_SERVICE_CIDR = "10.0.0.0/24";
    private static final Logger LOG = LoggerFactory.getLogger(KubernetesServiceController.class);
    private static final String KEY = KubernetesService.NAMESPACE + "/" + KubernetesService.NAME;

    private final KubernetesService desired;
    private final String clusterIP;
    private final ServedObjects objects;
    private final SharedIndexInformer services;
    private final SharedIndexInformer endpoints;
    private final SharedIndexInformer endpointSlices;
    private final WorkQueue<String> queue = WorkQueue.withDefaultRateLimiter("bootstrap-controller");
    private final QueueWorkers<String> workers;
    private final List<ResourceEventHandlerRegistration> registrations = new ArrayList<>();
    private final Runnable unsubscribe;
    private boolean synced;

    @Activate
    public KubernetesServiceController(java.util.Map<String, Object> config, BundleContext context,
                                       @Reference InformerFactory informers, @Reference ServedResources served) {
        this(desired(new Settings(config, context)),
                KubernetesService.firstAddress(new Settings(config, context).get("service-cluster-ip-range",
                        DEFAULT_SERVICE_CIDR)), informers, served);
    }

    KubernetesServiceController(KubernetesService desired, String clusterIP, InformerFactory informers,
                                ServedResources served) {
        this.desired = desired;
        this.clusterIP = clusterIP;
        this.objects = new ServedObjects(served);
        this.services = informers.forResource(SERVICES);
        this.endpoints = informers.forResource(ENDPOINTS);
        this.endpointSlices = informers.forResource(ENDPOINT_SLICES);
        this.workers = new QueueWorkers<>("bootstrap-controller", queue, 1, key -> sync());
        for (SharedIndexInformer informer : List.of(services, endpoints, endpointSlices)) {
            registrations.add(informer.addEventHandler(EventHandlers.onAnyChange(this::check, false)));
        }
        // Its resources' plugins arriving (at start, or updated) or namespace default appearing.
        unsubscribe = served.onChange(() -> queue.add(KEY));
        registrations.add(informers.forResource(SystemNamespacesController.NAMESPACES)
                .addEventHandler(EventHandlers.onAnyChange(this::check, false)));
        if (desired.publishable()) {
            LOG.info("bootstrap-controller: the kubernetes service points at {}:{}", desired.address(), desired.port());
        } else {
            LOG.warn("bootstrap-controller: the advertise address {} is loopback, which an endpoint may not be: the "
                    + "kubernetes service gets no endpoints (set --advertise-address)", desired.address());
        }
        queue.add(KEY);
        workers.start();
    }

    @Deactivate
    void deactivate() {
        unsubscribe.run();
        registrations.forEach(ResourceEventHandlerRegistration::close);
        workers.stop();
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

    /** One reconciliation of the three objects. */
    private void sync() {
        if (!objects.served(SERVICES) || !objects.served(ENDPOINTS)) {
            // Not a failure: the plugin serving them is not there yet, and its arrival queues the key again.
            LOG.debug("bootstrap-controller: waiting for services and endpoints to be served");
            return;
        }
        ensureService();
        // A loopback address has no endpoints (logged at start).
        if (desired.publishable()) {
            ensure(ENDPOINTS, endpoints, desired.endpoints(), desired::endpointsUpdate);
            if (objects.served(ENDPOINT_SLICES)) {
                ensure(ENDPOINT_SLICES, endpointSlices, desired.endpointSlice(), desired::endpointSliceUpdate);
            }
        }
        synchronized (this) {
            if (!synced) {
                synced = true;
                notifyAll();
            }
        }
    }

    private void ensureService() {
        if (services.getByKey(KEY) == null) {
            try {
                create(SERVICES, desired.service(clusterIP));
                return;
            } catch (StatusException e) {
                if (e.reason() != StatusReason.INVALID) {
                    throw e;
                }
                if (inStorage(SERVICES)) {
                    // An earlier pass created it and the cache has not seen it yet: the IP is taken by the service itself.
                    update(SERVICES, desired::serviceUpdate);
                    return;
                }
                // The range in use is not --service-cluster-ip-range's (etc/io.kubelix.services.cfg sets another).
                LOG.warn("bootstrap-controller: the kubernetes service cannot have cluster IP {} ({}); the "
                        + "allocator chooses one", clusterIP, e.getMessage());
                create(SERVICES, desired.service(null));
                return;
            }
        }
        update(SERVICES, desired::serviceUpdate);
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
                        UnaryOperator<ObjectNode> fix) {
        if (cache.getByKey(KEY) == null) {
            create(resource, wanted);
        } else {
            update(resource, fix);
        }
    }

    private void create(GroupVersionResource resource, ObjectNode obj) {
        try {
            objects.create(resource, obj);
            LOG.info("bootstrap-controller: created {} {}", ServedObjects.describe(resource), KEY);
        } catch (StatusException e) {
            if (e.reason() != StatusReason.ALREADY_EXISTS) {
                throw e;
            }
            // Created meanwhile (the cache is behind): check it against what it should be.
            update(resource, resource.equals(SERVICES) ? desired::serviceUpdate
                    : resource.equals(ENDPOINTS) ? desired::endpointsUpdate : desired::endpointSliceUpdate);
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
            LOG.info("bootstrap-controller: {} {} was changed; put back", ServedObjects.describe(resource), KEY);
        }
    }

    /** Queues the key for any event of default/kubernetes, or of namespace default. */
    private void check(ObjectNode obj) {
        String key = SharedIndexInformer.keyOf(obj);
        if (key.equals(KEY) || key.equals(KubernetesService.NAMESPACE)) {
            queue.add(KEY);
        }
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
    static String advertiseAddress(String advertise, String bind) {
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
