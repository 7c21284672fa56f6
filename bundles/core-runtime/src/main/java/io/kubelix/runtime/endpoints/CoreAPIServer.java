package io.kubelix.runtime.endpoints;

import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.api.registry.APIGroupInfo;
import io.kubelix.api.registry.NamedCreater;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.RESTStorageProvider;
import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.schema.GroupVersion;
import io.kubelix.api.server.DelegationTarget;
import io.kubelix.api.server.DiscoverySource;
import io.kubelix.api.server.ServedGroupVersions;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.runtime.audit.AuditContext;
import io.kubelix.runtime.codec.protobuf.ProtobufCodec;
import io.kubelix.runtime.controller.ServedResources;
import io.kubelix.runtime.endpoints.discovery.DiscoveryOrder;
import io.kubelix.runtime.endpoints.responsewriters.Responses;
import io.kubelix.runtime.plugins.ProvidedResource;
import io.kubelix.runtime.plugins.ServedAPIs;
import io.kubelix.runtime.registry.AdmissionChain;
import io.kubelix.runtime.registry.StoreFactory;
import io.kubelix.runtime.request.Requests;
import io.kubelix.runtime.server.JettyDelegationTarget;
import io.kubelix.runtime.server.OpenAPIProvider;
import io.kubelix.runtime.server.PluginSwaps;
import io.kubelix.runtime.server.healthz.VersionInfo;
import io.kubelix.runtime.storage.StorageFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.osgi.framework.Constants;
import io.kubelix.runtime.metrics.ServerMetrics;
import io.kubelix.runtime.server.PreShutdownHook;
import io.kubelix.runtime.server.Settings;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.Map;

/**
 * The core API link of the server chain (kube-apiserver's "master" server): serves every
 * resource of every installed {@link RESTStorageProvider}, and the discovery documents for
 * them. Providers are whiteboard services: one that appears is installed (routes and discovery)
 * at once, one that goes is removed at once (or, while its bundle is updated, replaced by its new
 * revision); when two serve the same group, version and resource, the higher
 * {@code service.ranking} wins and the shadowed one is logged. It publishes what it serves to the
 * server's controllers as {@link ServedResources}.
 */
@Component(service = {DelegationTarget.class, OpenAPIProvider.class, ServedAPIs.class, ServedResources.class,
        ServedGroupVersions.class, PreShutdownHook.class},
        property = Constants.SERVICE_RANKING + ":Integer=" + DelegationTarget.CORE_API_RANKING)
public final class CoreAPIServer implements JettyDelegationTarget, OpenAPIProvider, ServedAPIs, ServedResources,
        ServedGroupVersions, PreShutdownHook {
    private static final Logger LOG = LoggerFactory.getLogger(CoreAPIServer.class);

    private final StoreFactory storeFactory;
    private final APIInstaller installer;
    private final ProtobufCodec protobuf = new ProtobufCodec();
    /**
     * Writes the events of every open cache watch. Writes never block, so a few threads serve any
     * number of watches; a pool of their own keeps fan-out from growing the request pool.
     */
    private final ExecutorService watchWriters = Executors.newFixedThreadPool(
            Math.max(2, Runtime.getRuntime().availableProcessors()), new WatchWriterThreads());
    private final WebSocketWatches webSockets = new WebSocketWatches();
    private final OpenAPIHandler openAPI = new OpenAPIHandler(new VersionInfo().gitVersion());
    /** Registers a listener of the storage backend coming and going; none in tests. */
    private java.util.function.Function<Runnable, Runnable> backendChanges = listener -> () -> { };
    /** Whether the storage backend is there; always in tests. */
    private java.util.function.BooleanSupplier backendAvailable = () -> true;

    private final WatchServing watchServing;
    private final List<DiscoverySource> discoverySources = new java.util.concurrent.CopyOnWriteArrayList<>();

    @Activate
    public CoreAPIServer(@Reference StorageFactory storageFactory, @Reference AdmissionChain admission,
                         @Reference PluginSwaps swaps, @Reference ServerMetrics metrics, BundleContext context) {
        this(new StoreFactory(storageFactory, admission), swaps, new Settings(Map.of(), context)
                .getInt("min-request-timeout", (int) WatchServing.DEFAULT_MIN_REQUEST_TIMEOUT_SECONDS, 1, 1_000_000),
                metrics::watchEvent);
        this.backendChanges = storageFactory::onBackendChange;
        this.backendAvailable = storageFactory::available;
    }

    /** For tests: the core API over stores from {@code storeFactory}. */
    CoreAPIServer(StoreFactory storeFactory, PluginSwaps swaps) {
        this(storeFactory, swaps, WatchServing.DEFAULT_MIN_REQUEST_TIMEOUT_SECONDS, WatchServing.EventsSent.NONE);
    }

    private CoreAPIServer(StoreFactory storeFactory, PluginSwaps swaps, long minRequestTimeoutSeconds,
                          WatchServing.EventsSent eventsSent) {
        this.watchServing = new WatchServing(watchWriters, webSockets, minRequestTimeoutSeconds, eventsSent);
        this.storeFactory = storeFactory;
        this.installer = new APIInstaller(swaps);
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
    void addProvider(RESTStorageProvider provider, Map<String, Object> props) {
        String name = providerName(provider, props);
        APIGroupInfo info;
        try {
            info = provider.newRESTStorage(storeFactory);
        } catch (RuntimeException e) {
            LOG.error("API group \"{}\" from {} not installed: its storage could not be built: {}",
                    provider.groupName(), name, e.toString(), e);
            return;
        }
        installer.install(provider, name, info, props);
    }

    void removeProvider(RESTStorageProvider provider, Map<String, Object> props) {
        installer.uninstall(provider, props);
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
    void addDiscoverySource(DiscoverySource source) {
        discoverySources.add(source);
    }

    void removeDiscoverySource(DiscoverySource source) {
        discoverySources.remove(source);
    }

    /** What the discovery sources serve now; one that fails is left out, not the whole document. */
    private List<DiscoverySource.Group> remoteGroups() {
        List<DiscoverySource.Group> groups = new ArrayList<>();
        for (DiscoverySource source : discoverySources) {
            try {
                groups.addAll(source.discoveryGroups());
            } catch (RuntimeException e) {
                LOG.warn("discovery source {} failed; its groups are left out: {}", source, e.toString());
            }
        }
        return groups;
    }

    /** The order of discovery from the sources' priorities; one that fails gives none. */
    private DiscoveryOrder discoveryOrder() {
        List<DiscoverySource.Priority> priorities = new ArrayList<>();
        for (DiscoverySource source : discoverySources) {
            try {
                priorities.addAll(source.discoveryPriorities());
            } catch (RuntimeException e) {
                LOG.warn("discovery source {} failed; its priorities are left out: {}", source, e.toString());
            }
        }
        return priorities.isEmpty() ? DiscoveryOrder.NONE : new DiscoveryOrder(priorities);
    }

    @Deactivate
    void deactivate() {
        watchWriters.shutdownNow();
    }

    @Override
    public String name() {
        return "kube-apiserver";
    }

    /** The server shuts down: open watches end cleanly now, so the requests in flight are all that is waited for. */
    @Override
    public void run() {
        int ended = installer.endWatches(Duration.ofSeconds(2));
        if (ended > 0) {
            LOG.info("shutting down: ended {} open watches", ended);
        }
    }

    @Override
    public List<ProvidedResource> providedResources() {
        return installer.provided();
    }

    @Override
    public RESTStorage storage(GroupVersionResource resource) {
        return installer.routes().lookup(new GroupVersion(resource.group(), resource.version()), resource.resource());
    }

    @Override
    public List<GroupVersionResource> resources() {
        List<GroupVersionResource> served = new ArrayList<>();
        for (RouteTable.Group group : installer.routes().groups()) {
            group.resources().forEach((version, resources) -> resources.keySet().stream()
                    .filter(r -> !r.contains("/"))
                    .forEach(r -> served.add(new GroupVersionResource(group.name(), version, r))));
        }
        return served;
    }

    @Override
    public List<GroupVersion> groupVersions() {
        List<GroupVersion> served = new ArrayList<>();
        for (RouteTable.Group group : installer.routes().groups()) {
            group.versions().forEach(v -> served.add(new GroupVersion(group.name(), v)));
        }
        return served;
    }

    /** Also told when the storage backend comes or goes: what the served resources can do changes with it. */
    @Override
    public Runnable onChange(Runnable listener) {
        Runnable routes = installer.onChange(listener);
        Runnable backend = backendChanges.apply(listener);
        return () -> {
            routes.run();
            backend.run();
        };
    }

    @Override
    public boolean storageAvailable() {
        return backendAvailable.getAsBoolean();
    }

    @Override
    public boolean serveOpenAPI(Request request, Response response, Callback callback, String path) {
        return openAPI.serve(installer.routes(), remoteGroups(), request, response, callback, path);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        RequestInfo info = Requests.requestInfo(request);
        RouteTable routes = installer.routes();
        if (!info.resourceRequest()) {
            return Discovery.serve(routes, remoteGroups(), discoveryOrder(), request, response, callback);
        }
        GroupVersion gv = new GroupVersion(info.apiGroup(), info.apiVersion());
        if (info.apiPrefix().equals("api") != gv.group().isEmpty()) {
            return false;
        }
        String path = info.subresource().isEmpty() ? info.resource() : info.resource() + "/" + info.subresource();
        boolean watch = info.verb().equals("watch");
        APIInstaller.Entered entered = installer.enter(gv, path, !watch);
        RESTStorage storage = entered.storage();
        InFlight inFlight = entered.inFlight();
        if (storage == null) {
            return false;
        }
        if (watch) {
            // A watch streams from the watch cache, which outlives a swap; it ends when the resource goes.
            serve(storage, gv, path, info, request, response, callback);
            return true;
        }
        if (inFlight == null) {
            serve(storage, gv, path, info, request, response, callback);
            return true;
        }
        // The provider's bundle cannot finish an update while this request runs, so the request
        // uses that bundle's admission plugins being updated rather than waiting for their new revision.
        try (PluginSwaps.Held held = PluginSwaps.hold(inFlight.bundleId())) {
            serve(storage, gv, path, info, request, response, callback);
        } finally {
            inFlight.exit();
        }
        return true;
    }

    /**
     * Runs a controller's call on the storage serving {@code resource} as a request runs: after an
     * update of its plugin in progress, and counted among the storage's requests in flight, so the
     * update waits for it rather than discarding the classes it runs.
     */
    @Override
    public <T> T call(GroupVersionResource resource, java.util.function.Function<RESTStorage, T> call) {
        APIInstaller.Entered entered;
        try {
            entered = installer.enter(new GroupVersion(resource.group(), resource.version()), resource.resource(), true);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw StatusException.serviceUnavailable("interrupted while waiting for a plugin update");
        }
        if (entered.inFlight() == null) {
            return call.apply(entered.storage());
        }
        try (PluginSwaps.Held held = PluginSwaps.hold(entered.inFlight().bundleId())) {
            return call.apply(entered.storage());
        } finally {
            entered.inFlight().exit();
        }
    }

    private void serve(RESTStorage storage, GroupVersion gv, String path, RequestInfo info, Request request,
                       Response response, Callback callback) throws Exception {
        String namespace = scope(storage, info);
        RequestScope scope = new RequestScope(gv, storage, info,
                new HttpRequestContext(Requests.user(request), info, namespace,
                        (key, value) -> AuditContext.addAnnotation(request, key, value)), request, protobuf);
        scope.hasStatusSubresource = installer.routes().lookup(gv, info.resource() + "/status") != null;
        if (storage.warning() != null) {
            // sent at once, as kube's warning recorder does, so an error answer carries it too
            Responses.addWarnings(response, List.of(storage.warning()));
        }
        if ((info.verb().equals("update") || info.verb().equals("patch")) && info.name().isEmpty()) {
            // A collection has no PUT or PATCH route.
            throw methodNotAllowed();
        }
        if (!info.verb().equals("watch")) {
            // The response's form is agreed before anything is done: a 406 or a 400 for it must not follow a write.
            ResourceHandlers.checkResponseForm(scope, Negotiation.choose(scope));
        }
        switch (info.verb()) {
            case "get" -> ResourceHandlers.get(scope, response, callback);
            case "list" -> ResourceHandlers.list(scope, response, callback);
            case "watch" -> WatchHandler.serve(scope, response, callback, watchServing,
                    end -> installer.trackWatch(gv, path, end));
            case "create" -> {
                if (storage instanceof NamedCreater && !info.name().isEmpty()) {
                    NamedCreateHandler.create(scope, storeFactory.admission(), response, callback);
                } else {
                    ResourceHandlers.create(scope, response, callback);
                }
            }
            case "update" -> ResourceHandlers.update(scope, response, callback);
            case "patch" -> ResourceHandlers.patch(scope, response, callback);
            case "delete" -> ResourceHandlers.delete(scope, response, callback);
            case "deletecollection" -> ResourceHandlers.deleteCollection(scope, response, callback);
            default -> throw StatusException.methodNotSupported(scope.groupResource(), request.getMethod());
        }
    }

    /**
     * The namespace a request acts in. Cluster-scoped resources have none (a namespaced path to
     * one is not found); namespaced resources need one for everything but list, watch and create
     * of a whole collection across namespaces.
     */
    private static String scope(RESTStorage storage, RequestInfo info) {
        boolean clusterPath = info.namespace().isEmpty()
                || info.resource().equals("namespaces") && info.parts().get(0).equals("namespaces");
        if (!storage.namespaced()) {
            if (!clusterPath) {
                throw notFound();
            }
            return "";
        }
        if (info.namespace().isEmpty()) {
            switch (info.verb()) {
                case "list", "watch" -> {
                    return "";
                }
                case "create", "deletecollection" -> throw methodNotAllowed();
                default -> throw notFound();
            }
        }
        return info.namespace();
    }

    /** What kube answers a method its route does not serve (go-restful's 405, as the apiserver words it). */
    static StatusException methodNotAllowed() {
        return new StatusException(StatusReason.METHOD_NOT_ALLOWED, 405,
                "the server does not allow this method on the requested resource",
                new StatusException.Details(null, null, null, List.of(), 0), null);
    }

    static StatusException notFound() {
        return new StatusException(StatusReason.NOT_FOUND, 404, "the server could not find the requested resource",
                new StatusException.Details(null, null, null, List.of(), 0), null);
    }

    private static String providerName(RESTStorageProvider provider, Map<String, Object> props) {
        Object component = props.get("component.name");
        return component != null ? component.toString() : provider.getClass().getName();
    }
}
