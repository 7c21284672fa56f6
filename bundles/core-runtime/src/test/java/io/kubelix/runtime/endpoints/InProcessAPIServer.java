package io.kubelix.runtime.endpoints;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.APIGroupInfo;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.RESTStorageProvider;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StandardStorage;
import io.kubelix.api.registry.StatusStrategies;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.request.UserInfo;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.schema.ResourceSchema;
import io.kubelix.api.storage.StorageConfig;
import io.kubelix.api.storage.StorageInterface;
import io.kubelix.runtime.MemoryTestBackends;
import io.kubelix.runtime.controller.garbagecollector.GarbageCollector;
import io.kubelix.runtime.controller.informer.InformerFactory;
import io.kubelix.runtime.registry.AdmissionChain;
import io.kubelix.runtime.registry.StoreFactory;
import io.kubelix.runtime.request.Requests;
import io.kubelix.runtime.server.PluginSwaps;
import io.kubelix.runtime.server.filters.WithPanicRecovery;
import io.kubelix.runtime.server.filters.WithRequestInfo;
import io.kubelix.runtime.server.filters.WithURIPolicy;
import io.kubelix.runtime.server.filters.WithWebSocketTunnel;
import io.kubelix.runtime.storage.cacher.Cacher;
import io.kubelix.runtime.storage.cacher.CacherOptions;
import io.kubelix.storage.memory.MemoryStorageBackend;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The core API link (CoreAPIServer) on a real Jetty server over the memory storage, behind
 * WithPanicRecovery, WithURIPolicy and WithRequestInfo, with every request authenticated as one user: the
 * request path of the real server without TLS and plugins. Serves {@code /api/v1} configmaps
 * (with an OpenAPI schema) and, in group {@code example.com/v1}, widgets (with a spec, a status,
 * {@code widgets/status} and {@code widgets/scale}, and no schema) that track generation, and the
 * {@code /openapi/*} documents.
 */
final class InProcessAPIServer implements AutoCloseable {
    private static final UserInfo ADMIN = new UserInfo("admin", "", List.of(UserInfo.ALL_AUTHENTICATED), Map.of());

    private final MemoryStorageBackend backend;
    private final Server server;
    final ServerConnector connector;
    /** The watch caches in front of the storage, when asked for. */
    final Map<String, Cacher> cachers = new java.util.concurrent.ConcurrentHashMap<>();
    final URI base;
    final CoreAPIServer api;
    /** The server's informers and the garbage collector on them, when a test asks for them. */
    private InformerFactory informers;
    private GarbageCollector garbageCollector;
    /** The admission chain of every Store and subresource served. */
    final AdmissionChain admission = new AdmissionChain();

    InProcessAPIServer() throws Exception {
        this(false);
    }

    /** @param watchCache whether a Cacher serves each resource, as in the real server */
    InProcessAPIServer(boolean watchCache) throws Exception {
        this(watchCache ? CacherOptions.DEFAULT : null);
    }

    /** @param cacherOptions those of the Cacher in front of each resource; null for none */
    InProcessAPIServer(CacherOptions cacherOptions) throws Exception {
        backend = MemoryTestBackends.newBackend(1000, 100, 60_000);
        StoreFactory stores = new StoreFactory((gr, prefix) -> {
            StorageInterface storage = backend.forResource(new StorageConfig(gr, prefix));
            return cacherOptions != null ? cachers.computeIfAbsent(prefix, p -> new Cacher(storage, gr, p, cacherOptions))
                    : storage;
        }, admission);
        api = new CoreAPIServer(stores, PluginSwaps.none());
        api.addProvider(provider("", "v1", getter -> Map.of("configmaps",
                getter.newStore(StoreSpec.builder(GroupResource.of("", "configmaps"), "ConfigMap").shortNames("cm")
                        .schema(configMapSchema()).strategy(new Permissive(false)).build()))), Map.of("service.id", 1L));
        api.addProvider(provider("example.com", "v1", getter -> {
            StandardStorage widgets = getter.newStore(StoreSpec.builder(GroupResource.of("example.com", "widgets"),
                    "Widget").strategy(new Permissive(true)).generation(true).build());
            Map<String, RESTStorage> m = new LinkedHashMap<>();
            m.put("widgets", widgets);
            m.put("widgets/status", getter.newStatusStore(widgets, new Permissive(true) {
                @Override
                public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
                    StatusStrategies.keepOnlyStatus(obj, old);
                }
            }));
            m.put("widgets/scale", getter.newScaleStore(widgets, io.kubelix.api.registry.ScaleSubresource.replicasAndSpecSelector()));
            return m;
        }), Map.of("service.id", 2L));

        server = new Server();
        // HTTP/1.1, and HTTP/2 by prior knowledge with WebSockets over it (RFC 8441).
        HTTP2CServerConnectionFactory h2c = new HTTP2CServerConnectionFactory(new HttpConfiguration());
        h2c.setConnectProtocolEnabled(true);
        connector = new ServerConnector(server, new HttpConnectionFactory(), h2c);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        Handler director = new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                Requests.setUser(request, ADMIN);
                String path = request.getHttpURI().getPath();
                if (path.startsWith("/openapi/") && api.serveOpenAPI(request, response, callback, path)) {
                    return true;
                }
                if (api.handle(request, response, callback)) {
                    return true;
                }
                throw CoreAPIServer.notFound();
            }
        };
        server.setHandler(new WithWebSocketTunnel(new WithPanicRecovery(new WithURIPolicy(new WithRequestInfo(director)))));
        server.start();
        base = URI.create("http://127.0.0.1:" + connector.getLocalPort());
    }

    /**
     * Runs the garbage collector on informers over the served resources, as core-runtime runs it beside
     * the core API; its informers are watchers of the watch cache like any other.
     */
    InProcessAPIServer withGarbageCollector() {
        informers = new InformerFactory(api);
        garbageCollector = new GarbageCollector(informers, api, 2);
        return this;
    }

    /**
     * Serves {@code resource} of kind {@code kind} in {@code group/version} with its schema,
     * accepting every object as the configmaps are (no strategy of its own).
     */
    void serve(String group, String version, String resource, String kind, ResourceSchema schema, long serviceId) {
        api.addProvider(provider(group, version, getter -> Map.of(resource,
                getter.newStore(StoreSpec.builder(GroupResource.of(group, resource), kind).schema(schema)
                        .strategy(new Permissive(false)).build()))), Map.of("service.id", serviceId));
    }

    @Override
    public void close() throws Exception {
        server.stop();
        if (garbageCollector != null) {
            garbageCollector.deactivate();
            informers.stop();
        }
        api.deactivate();
        cachers.values().forEach(Cacher::stop);
        MemoryTestBackends.close(backend);
    }

    /** A ConfigMap schema as the generator writes them (trimmed); widgets have none. */
    static ResourceSchema configMapSchema() {
        try (var in = InProcessAPIServer.class.getResourceAsStream("/openapi/configmap.json")) {
            return ResourceSchema.load(in, "io.k8s.api.core.v1.ConfigMap");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static RESTStorageProvider provider(String group, String version,
                                                java.util.function.Function<io.kubelix.api.registry.RESTOptionsGetter,
                                                        Map<String, RESTStorage>> build) {
        return new RESTStorageProvider() {
            @Override
            public String groupName() {
                return group;
            }

            @Override
            public APIGroupInfo newRESTStorage(io.kubelix.api.registry.RESTOptionsGetter getter) {
                return new APIGroupInfo(group, List.of(version), Map.of(version, build.apply(getter)));
            }
        };
    }

    /** Accepts every object; with a status, the main resource keeps the stored one. */
    private static class Permissive implements RESTCreateStrategy, RESTUpdateStrategy {
        private final boolean hasStatus;

        Permissive(boolean hasStatus) {
            this.hasStatus = hasStatus;
        }

        @Override
        public void prepareForCreate(RequestContext ctx, ObjectNode obj) {
            if (hasStatus) {
                obj.remove("status");
            }
        }

        @Override
        public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
            if (hasStatus) {
                StatusStrategies.resetStatus(obj, old);
            }
        }

        @Override
        public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
            return List.of();
        }

        @Override
        public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
            return List.of();
        }
    }

}
