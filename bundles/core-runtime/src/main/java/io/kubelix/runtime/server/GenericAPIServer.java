package io.kubelix.runtime.server;

import io.kubelix.api.authn.AuthenticationChain;
import io.kubelix.api.authn.Authenticator;
import io.kubelix.api.authn.TokenIssuer;
import io.kubelix.api.authz.AuthorizationChain;
import io.kubelix.api.authz.Authorizer;
import io.kubelix.api.server.DelegationTarget;
import io.kubelix.api.server.HealthChecker;
import io.kubelix.runtime.audit.AuditOptions;
import io.kubelix.runtime.bootstrap.CertKeyFiles;
import io.kubelix.runtime.bootstrap.DataDirectory;
import io.kubelix.runtime.bootstrap.SniCertKey;
import io.kubelix.runtime.controller.bootstrap.KubernetesService;
import io.kubelix.runtime.controller.bootstrap.KubernetesServiceController;
import io.kubelix.runtime.flowcontrol.FlowControlDebugging;
import io.kubelix.runtime.flowcontrol.PriorityAndFairness;
import io.kubelix.runtime.metrics.AuditMetrics;
import io.kubelix.runtime.metrics.MetricsHandler;
import io.kubelix.runtime.metrics.RequestMetrics;
import io.kubelix.runtime.metrics.ServerMetrics;
import io.kubelix.runtime.console.ConsolePage;
import io.kubelix.runtime.plugins.KubelixEndpoint;
import io.kubelix.runtime.plugins.PluginInventory;
import io.kubelix.runtime.server.healthz.BundlesStartedCheck;
import io.kubelix.runtime.server.healthz.HealthHandler;
import io.kubelix.runtime.server.healthz.RequiredChecks;
import io.kubelix.runtime.server.healthz.VersionInfo;
import io.kubelix.runtime.storage.StorageFactory;
import io.kubelix.support.net.IP;
import io.kubelix.support.time.GoDuration;
import org.eclipse.jetty.alpn.server.ALPNServerConnectionFactory;
import org.eclipse.jetty.http2.HTTP2Cipher;
import org.eclipse.jetty.http2.HTTP2Connection;
import org.eclipse.jetty.http2.server.HTTP2ServerConnectionFactory;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleEvent;
import org.osgi.framework.SynchronousBundleListener;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.SSLContext;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.file.Path;
import java.security.Provider;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The GenericAPIServer: Jetty serving HTTPS (HTTP/2 and HTTP/1.1 through ALPN) on
 * {@code --bind-address:--secure-port}, with the handler chain in front of the Director.
 * Authenticators, authorizers, server-chain links and health checks are whiteboard services;
 * adding or removing one changes the running server at once.
 *
 * <p>Start-up, in order: 1. prepare the data directory (CA, serving certificate, admin token);
 * 2. build the handler chain; 3. listen; 4. write {@code admin.kubeconfig}.
 */
// etc/io.kubelix.services.cfg's service-cluster-ip-range names the kubernetes service's IP, which the certificate names.
@Component(immediate = true, configurationPid = {GenericAPIServer.PID, GenericAPIServer.SERVICES_PID},
        configurationPolicy = ConfigurationPolicy.OPTIONAL, service = {})
public final class GenericAPIServer {
    public static final String PID = "io.kubelix.apiserver";
    /** The service networks' configuration (resource-core's), where {@code service-cluster-ip-range} is set in etc/. */
    public static final String SERVICES_PID = "io.kubelix.services";
    private static final Logger LOG = LoggerFactory.getLogger(GenericAPIServer.class);
    /** Eight full HTTP/2 DATA frames: written as three socket writes of three TLS records. */
    static final int HTTP2_WRITE_THRESHOLD = 128 * 1024;
    /** The largest request header block served (Go's http.DefaultMaxHeaderBytes, 1 MiB). */
    static final int MAX_HEADER_BYTES = 1 << 20;

    private final RankedServices<Authenticator> authenticators;
    private final AuthorizationModes authorizers;
    private final UnionAuthorizer authorization;
    private final Authentication authentication;
    /** The service account token issuer, whose default audiences are the API audiences without --api-audiences. */
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private volatile TokenIssuer tokenIssuer;
    private ServiceRegistration<AuthorizationChain> authorizationService;
    private ServiceRegistration<AuthenticationChain> authenticationService;
    /** The flow control, or null when off; a service for its configuration controller and post-start hook. */
    private PriorityAndFairness priorityAndFairness;
    private ServiceRegistration<PriorityAndFairness> priorityAndFairnessService;

    private final RankedServices<DelegationTarget> serverChain = new RankedServices<>();
    private final RankedServices<OpenAPIProvider> openAPIProviders = new RankedServices<>();
    private final RankedServices<KubelixEndpoint> kubelixEndpoints = new RankedServices<>();
    private final RankedServices<HealthChecker> livezChecks = new RankedServices<>();
    private final RankedServices<HealthChecker> readyzChecks = new RankedServices<>();
    private final RankedServices<HealthChecker> healthzChecks = new RankedServices<>();
    private final AtomicBoolean shuttingDown = new AtomicBoolean();
    /** When the graceful shutdown began ({@link System#nanoTime()}); 0 before. */
    private volatile long stoppingSince;
    private final RankedServices<PreShutdownHook> preShutdownHooks = new RankedServices<>();
    /** Shuts the server down gracefully as the framework begins to stop, before any plugin stops. */
    private final SynchronousBundleListener onFrameworkStop = event -> {
        if (event.getBundle().getBundleId() == 0 && event.getType() == BundleEvent.STOPPING) {
            shutDownGracefully();
        }
    };
    private Duration shutdownDelay = Duration.ZERO;
    /** The audit policy and backends, or null when nothing is audited. */
    private AuditOptions.Audit audit;
    /** The checks of {@code /readyz}, with the required ones standing in until they are registered. */
    private RequiredChecks readyz;
    /** Where the server listens and where its kubeconfig is, for the ready line. */
    private String servingUrl;
    private Path kubeconfigFile;
    /** When the server component started ({@link System#nanoTime()}), and whether the framework was starting then. */
    private final long activatedNanos = System.nanoTime();
    private boolean startedWithFramework;
    /** Says when the server is first ready. */
    private ReadyAnnouncer announcer;
    /** For the ready line: the storage backend in use and the plugins. */
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private volatile StorageFactory storageFactory;
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private volatile PluginInventory pluginInventory;
    private BundleContext context;
    private final Server server;
    /** Serves a changed --tls-cert-file, when one is given. */
    private ServingCertificateReloader reloader;

    @Activate
    public GenericAPIServer(Map<String, Object> config, BundleContext context, @Reference PluginSwaps swaps,
                            @Reference ServerMetrics metrics) throws Exception {
        // An authenticator or authorizer being updated serves until its new revision takes over.
        authenticators = new RankedServices<>(swaps);
        AuthorizationModes modes = null;
        Settings settings = new Settings(config, context);
        try {
            modes = authorizationModes(settings, swaps);
        } catch (IllegalArgumentException e) {
            failed(context, e);
            throw e;
        }
        authorizers = modes;
        authentication = new Authentication(authenticators, Authentication.apiAudiences(
                settings.get("api-audiences", ""), () -> tokenIssuer));
        authorization = new UnionAuthorizer(authorizers);
        try {
            this.context = context;
            Bundle framework = context.getBundle(org.osgi.framework.Constants.SYSTEM_BUNDLE_ID);
            startedWithFramework = framework != null && framework.getState() == Bundle.STARTING;
            server = start(config, context, metrics);
            context.addBundleListener(onFrameworkStop);
            if (Boolean.parseBoolean(context.getProperty("kubelix.handle-signals"))) {
                Signals.install(context);
            }
            // The access and token review APIs ask the same chains requests meet.
            authorizationService = context.registerService(AuthorizationChain.class, authorization, null);
            authenticationService = context.registerService(AuthenticationChain.class, authentication, null);
            if (priorityAndFairness != null) {
                priorityAndFairnessService = context.registerService(PriorityAndFairness.class, priorityAndFairness, null);
            }
            announcer = new ReadyAnnouncer(readyz, this::readyLine);
            announcer.start();
        } catch (Exception | Error e) {
            failed(context, e);
            throw e;
        }
    }

    /**
     * kube-apiserver's {@code --authorization-config}, which may not come with the flags it
     * replaces, else {@code --authorization-mode}.
     */
    static AuthorizationModes authorizationModes(Settings settings, PluginSwaps swaps) {
        String file = settings.get("authorization-config", "");
        if (file.isBlank()) {
            return AuthorizationModes.parse(settings.get("authorization-mode", AuthorizationModes.RBAC), swaps);
        }
        for (String legacy : List.of("authorization-mode", "authorization-webhook-config-file",
                "authorization-webhook-version", "authorization-webhook-cache-authorized-ttl",
                "authorization-webhook-cache-unauthorized-ttl")) {
            if (!settings.get(legacy, "").isBlank()) {
                throw new IllegalArgumentException("--authorization-config can not be specified when "
                        + "--authorization-mode or --authorization-webhook-* flags are defined");
            }
        }
        return AuthorizationModes.fromFile(Path.of(file.trim()), swaps);
    }

    /**
     * kube's {@code --enable-priority-and-fairness} (default true): the flow control that takes the
     * place of the in-flight limits, sharing their sum; without seats to share (both limits 0, no
     * limit) it stays off. Queued requests wait at most a quarter of the request timeout, as kube's.
     */
    static PriorityAndFairness priorityAndFairness(Settings settings, int seats, Duration requestTimeout,
                                                   ServerMetrics metrics,
                                                   java.util.function.ToLongFunction<String> objectCounts) {
        String enabled = settings.get("enable-priority-and-fairness", "true");
        if (!enabled.equalsIgnoreCase("true") && !enabled.equalsIgnoreCase("false")) {
            throw new IllegalArgumentException("invalid enable-priority-and-fairness \"" + enabled
                    + "\": must be true or false");
        }
        if (!Boolean.parseBoolean(enabled) || seats == 0) {
            return null;
        }
        Duration waitLimit = requestTimeout.isZero() ? Duration.ofSeconds(15) : requestTimeout.dividedBy(4);
        return new PriorityAndFairness(seats, waitLimit, metrics.flowControl(), objectCounts,
                io.kubelix.runtime.flowcontrol.EventClock.system());
    }

    /**
     * The objects a resource's watch cache holds ({@code pods}, {@code deployments.apps}), as kube's
     * object count tracker gives them to the work estimator: not found without a watch cache for it.
     */
    private long objectCount(String resource) {
        StorageFactory storage = storageFactory;
        if (storage == null) {
            return io.kubelix.runtime.flowcontrol.WorkEstimator.NOT_FOUND;
        }
        io.kubelix.runtime.storage.cacher.Cacher c = storage.cacher(resource);
        if (c == null) {
            return io.kubelix.runtime.flowcontrol.WorkEstimator.NOT_FOUND;
        }
        long n = c.objectCount();
        return n < 0 ? io.kubelix.runtime.flowcontrol.WorkEstimator.STALE : n;
    }

    /** Logs why the server cannot start and, under {@code bin/kubelix}, ends the process. */
    public static void failed(BundleContext context, Throwable e) {
        LOG.error("Kubelix API server cannot start: {}", e.getMessage());
        // Under bin/kubelix a server that cannot serve is a failed process, as kube-apiserver exits.
        if (Boolean.parseBoolean(context.getProperty("kubelix.exit-on-start-failure"))) {
            Thread exit = new Thread(() -> System.exit(1), "kubelix-exit");
            exit.setDaemon(true);
            exit.start();
        }
    }

    private Server start(Map<String, Object> config, BundleContext context, ServerMetrics metrics) throws Exception {
        Settings settings = new Settings(config, context);
        int port = settings.getInt("secure-port", 6443, 1, 65535);
        String bindAddress = settings.get("bind-address", "127.0.0.1");
        Path dataDir = Path.of(settings.get("data-dir", ".kubelix")).toAbsolutePath().normalize();
        InetAddress bind = parseBindAddress(bindAddress);
        TlsProvider.Choice tlsProvider = TlsProvider.choose(settings.get("tls-provider", "auto"));
        // kube-apiserver's --http2-max-streams-per-connection; its 0 means Go's default, 250.
        int maxStreams = settings.getInt("http2-max-streams-per-connection", 0, 0, 1_000_000);

        // 1. The data directory: what a client needs to trust and reach us.
        DataDirectory data = DataDirectory.prepare(dataDir, servingHosts(bind, settings));

        // 2. The handler chain, with the built-in checks first.
        int maxReads = settings.getInt("max-requests-inflight", 400, 0, 1_000_000);
        int maxWrites = settings.getInt("max-mutating-requests-inflight", 200, 0, 1_000_000);
        Duration requestTimeout = GoDuration.parseFlag("request-timeout", settings.get("request-timeout", "1m0s"));
        priorityAndFairness = priorityAndFairness(settings, maxReads + maxWrites, requestTimeout, metrics,
                this::objectCount);
        HandlerChain.Limits limits = new HandlerChain.Limits(maxReads, maxWrites, requestTimeout,
                metrics.readOnlyInflight(), metrics.mutatingInflight(), priorityAndFairness);
        if (priorityAndFairness != null) {
            LOG.info("API priority and fairness: {} seats shared by the priority levels (max-requests-inflight plus "
                    + "max-mutating-requests-inflight); request timeout {} s", maxReads + maxWrites,
                    requestTimeout.toSeconds());
        } else {
            LOG.info("requests in flight at most {} reads and {} writes (0: no limit); request timeout {} s",
                    maxReads, maxWrites, requestTimeout.toSeconds());
        }
        addBuiltInChecks(context);
        VersionInfo version = new VersionInfo();
        Director director = new Director(serverChain, openAPIProviders, kubelixEndpoints, List.of(
                new HealthHandler("healthz", healthzChecks),
                new HealthHandler("livez", livezChecks),
                new HealthHandler("readyz", readyz = new RequiredChecks(readyzChecks, RequiredChecks.READYZ))),
                version, new MetricsHandler(metrics),
                priorityAndFairness == null ? null : new FlowControlDebugging(priorityAndFairness));

        // 3. Listen.
        Server server = new Server(threadPool());
        TlsOptions tlsOptions = TlsOptions.parse(settings.get("tls-min-version", "VersionTLS12"),
                settings.get("tls-cipher-suites", ""));
        CertKeyFiles servingFiles = servingFiles(settings);
        List<SniCertKey> sniCertKeys = sniCertKeys(settings);
        ServingCertificates certificates = ServingCertificates.load(servingFiles, data.servingKeys(), sniCertKeys);
        LOG.info("Serving HTTPS with {}", certificates.description());
        ServerConnector connector = httpsConnector(server, certificates, tlsProvider, tlsOptions,
                maxStreams == 0 ? 250 : maxStreams);
        connector.setHost(bind.getHostAddress());
        connector.setPort(port);
        server.addConnector(connector);
        boolean anonymous = Boolean.parseBoolean(settings.get("anonymous-auth", "true"));
        if (anonymous && !authorizers.allowsAnonymous()) {
            LOG.warn("anonymous-auth is not allowed with the AlwaysAllow authorizer: anonymous requests are refused;"
                    + " choose another authorization-mode to allow them");
            anonymous = false;
        }
        LOG.info("authorization modes: {}; anonymous requests {}", String.join(",", authorizers.modes()),
                anonymous ? "allowed as system:anonymous" : "refused");
        shutdownDelay = GoDuration.parseFlag("shutdown-delay-duration", settings.get("shutdown-delay-duration", "0s"));
        // At shutdown, requests in flight may take up to the request timeout to finish.
        server.setStopTimeout(Math.max(5_000, limits.requestTimeout().toMillis() + 1_000));
        // kube-apiserver's --audit-* flags: an invalid policy or flag stops the server.
        audit = AuditOptions.build(settings, new AuditMetrics(metrics));
        // The console's static page is outside the filter chain: it holds no data, and a browser loads it before
        // it has a token to send; the data it polls (/kubelix/console/state) goes through the chain.
        server.setHandler(new GracefulHandler(new ConsolePage(HandlerChain.build(director, authentication, authorization,
                anonymous, new RequestMetrics(metrics), limits, audit))));
        server.setErrorHandler(new StatusErrorHandler());
        try {
            server.start();
        } catch (Exception e) {
            server.stop();
            throw new IllegalStateException("cannot serve on " + bindAddress + ":" + port + ": " + e.getMessage()
                    + " (is another server using the port? choose another with --secure-port)", e);
        }
        try {
            SSLContext serving = connector.getConnectionFactory(SslConnectionFactory.class).getSslContextFactory()
                    .getSslContext();
            tlsOptions.checkSupported(List.of(serving.getSupportedSSLParameters().getCipherSuites()));
        } catch (IllegalArgumentException e) {
            server.stop();
            throw e;
        }
        if (servingFiles != null || !sniCertKeys.isEmpty()) {
            reloader = new ServingCertificateReloader(servingFiles, data.servingKeys(), sniCertKeys,
                    (SslContextFactory.Server) connector.getConnectionFactory(SslConnectionFactory.class)
                            .getSslContextFactory(), tlsProvider, Duration.ofSeconds(5));
        }
        if (servingFiles != null) {
            LOG.info("{} trusts the data directory's CA ({}); with --tls-cert-file, clients need the CA of {} instead",
                    "admin.kubeconfig", data.caCertificate(), servingFiles.certFile());
        }

        // 4. A kubeconfig for kubectl.
        String url = "https://" + urlHost(bind) + ":" + connector.getLocalPort();
        Path kubeconfig = data.writeKubeconfig(url);
        servingUrl = url;
        kubeconfigFile = kubeconfig;
        LOG.info("Kubelix {} serving on {} (data directory {})", version.gitVersion(), url, dataDir);
        LOG.info("TLS provider: {}", tlsProvider.description());
        LOG.info("kubeconfig for kubectl: {}  (export KUBECONFIG={})", kubeconfig, kubeconfig);
        return server;
    }

    /**
     * The line logged once when the server is first ready: where it serves, its kubeconfig, the
     * storage backend, how many plugins (bundles contributing to the server, as
     * {@code /kubelix/plugins} lists them) and how long it took: since the JVM started when Kubelix
     * started with the framework ({@code bin/kubelix}), else since the server component started.
     */
    String readyLine() {
        long millis = startedWithFramework ? ManagementFactory.getRuntimeMXBean().getUptime()
                : (System.nanoTime() - activatedNanos) / 1_000_000;
        StorageFactory storage = storageFactory;
        PluginInventory inventory = pluginInventory;
        String plugins = "";
        if (inventory != null) {
            long own = context.getBundle().getBundleId();
            long count = inventory.report().plugins().stream().filter(p -> p.bundle().id() != own).count();
            plugins = ", " + count + (count == 1 ? " plugin" : " plugins");
        }
        return String.format(java.util.Locale.ROOT, "Kubelix is ready on %s, %.1f s after start: kubeconfig %s, "
                        + "storage backend %s%s", servingUrl, millis / 1000.0, kubeconfigFile,
                storage == null ? new Settings(Map.of(), context).get("storage-backend", "memory") : storage.backendName(),
                plugins);
    }

    /**
     * kube-apiserver's graceful termination, run as the framework begins to stop (SIGTERM under
     * {@code bin/kubelix}), while every plugin still serves: 1. {@code /readyz} fails, so load
     * balancers stop sending; 2. requests are still served for {@code --shutdown-delay-duration};
     * 3. the pre-shutdown hooks run (open watches end cleanly); 4. the server stops listening and
     * waits for the requests in flight to finish (at most the request timeout); 5. the audit
     * backends write the events they still hold.
     */
    private void shutDownGracefully() {
        long begin = System.nanoTime();
        // 1.
        shuttingDown.set(true);
        stopAnnouncer();
        stoppingSince = begin;
        LOG.info("Kubelix is stopping: /readyz fails from now on; serving {} s more (--shutdown-delay-duration)",
                shutdownDelay.toSeconds());
        // 2.
        try {
            Thread.sleep(shutdownDelay.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // 3.
        for (PreShutdownHook hook : preShutdownHooks.get()) {
            try {
                hook.run();
            } catch (RuntimeException e) {
                LOG.warn("pre-shutdown hook {} failed: {}", hook.name(), e.toString());
            }
        }
        // 4.
        try {
            server.stop();
        } catch (Exception e) {
            LOG.warn("stopping the HTTPS server: {}", e.toString());
        }
        // 5. The audit backends write what they still hold.
        stopAuditing();
        LOG.info("Kubelix is stopping: stopped serving, requests in flight finished, after {} ms; stopping the plugins",
                (System.nanoTime() - begin) / 1_000_000);
    }

    private void stopAnnouncer() {
        if (announcer != null) {
            announcer.stop();
        }
    }

    @Deactivate
    void deactivate() throws Exception {
        if (context != null) {
            context.removeBundleListener(onFrameworkStop);
        }
        if (authorizationService != null) {
            authorizationService.unregister();
            authenticationService.unregister();
        }
        if (priorityAndFairnessService != null) {
            priorityAndFairnessService.unregister();
        }
        shuttingDown.set(true);
        stopAnnouncer();
        if (reloader != null) {
            reloader.close();
        }
        server.stop();
        stopAuditing();
        long since = stoppingSince;
        if (since != 0) {
            LOG.info("Kubelix stopped, {} ms after it began to stop", (System.nanoTime() - since) / 1_000_000);
        } else {
            LOG.info("Kubelix API server stopped");
        }
    }

    private synchronized void stopAuditing() {
        if (audit != null) {
            audit.backend().shutdown();
            audit = null;
        }
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
    void addAuthenticator(Authenticator a, Map<String, Object> props) {
        authenticators.add(a, props);
        LOG.info("authenticator added: {}", a.getClass().getName());
    }

    void removeAuthenticator(Authenticator a, Map<String, Object> props) {
        boolean outgoing = authenticators.remove(a, props);
        Lifecycle.gone(LOG, "authenticator {}: {}", outgoing ? "being updated" : "removed", a.getClass().getName());
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
    void addAuthorizer(Authorizer a, Map<String, Object> props) {
        authorizers.add(a, props);
        AuthorizationModes.Entry entry = AuthorizationModes.Entry.of(props);
        if (authorizers.asks(props)) {
            LOG.info("authorizer added: {} (mode {})", a.getClass().getName(), entry == null ? "-" : entry);
        } else {
            LOG.info("authorizer {} not asked: its mode {} is not in authorization-mode {}", a.getClass().getName(),
                    entry, String.join(",", authorizers.modes()));
        }
    }

    void removeAuthorizer(Authorizer a, Map<String, Object> props) {
        boolean outgoing = authorizers.remove(a, props);
        AuthorizationModes.Entry entry = AuthorizationModes.Entry.of(props);
        Lifecycle.gone(LOG, "authorizer {}: {}{}", outgoing ? "being updated" : "removed", a.getClass().getName(),
                entry == null ? "" : " (mode " + entry + ")");
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
    void addPreShutdownHook(PreShutdownHook hook, Map<String, Object> props) {
        preShutdownHooks.add(hook, props);
    }

    void removePreShutdownHook(PreShutdownHook hook) {
        preShutdownHooks.remove(hook);
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
    void addDelegationTarget(DelegationTarget t, Map<String, Object> props) {
        serverChain.add(t, props);
        LOG.info("server chain: {} added (ranking {})", t.name(), RankedServices.ranking(props));
    }

    void removeDelegationTarget(DelegationTarget t) {
        serverChain.remove(t);
        Lifecycle.gone(LOG, "server chain: {} removed", t.name());
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
    void addOpenAPIProvider(OpenAPIProvider p, Map<String, Object> props) {
        openAPIProviders.add(p, props);
    }

    void removeOpenAPIProvider(OpenAPIProvider p) {
        openAPIProviders.remove(p);
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
    void addKubelixEndpoint(KubelixEndpoint e, Map<String, Object> props) {
        kubelixEndpoints.add(e, props);
    }

    void removeKubelixEndpoint(KubelixEndpoint e) {
        kubelixEndpoints.remove(e);
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
    void addHealthChecker(HealthChecker c, Map<String, Object> props) {
        Object endpoints = props.get(HealthChecker.ENDPOINTS_PROPERTY);
        String where = endpoints == null ? "livez,readyz" : String.join(",", asStrings(endpoints));
        if (where.contains("livez")) {
            livezChecks.add(c, props);
        }
        if (where.contains("readyz")) {
            readyzChecks.add(c, props);
        }
        healthzChecks.add(c, props);
    }

    void removeHealthChecker(HealthChecker c) {
        livezChecks.remove(c);
        readyzChecks.remove(c);
        healthzChecks.remove(c);
    }

    /**
     * The checks the server has of its own: {@code ping}; for {@code /readyz} also
     * {@code bundles-started}, {@code authentication}, {@code authorization} and, last,
     * {@code shutdown}. The checks of storage, informers and post-start hooks are registered by
     * their components, and {@link RequiredChecks} stands in for them until they are.
     */
    private void addBuiltInChecks(BundleContext context) {
        HealthChecker ping = new NamedCheck("ping", () -> { });
        HealthChecker shutdown = new NamedCheck("shutdown", () -> {
            if (shuttingDown.get()) {
                throw new IllegalStateException("process is shutting down");
            }
        });
        Map<String, Object> first = Map.of(org.osgi.framework.Constants.SERVICE_RANKING, Integer.MAX_VALUE,
                org.osgi.framework.Constants.SERVICE_ID, 0L);
        livezChecks.add(ping, first);
        readyzChecks.add(ping, first);
        healthzChecks.add(ping, first);
        // Not ready while the framework is still starting bundles (plugins/ included).
        readyzChecks.add(new BundlesStartedCheck(context), Map.of());
        // Serving needs someone to authenticate and authorize requests; until plugins provide both, not ready.
        readyzChecks.add(new NamedCheck("authentication", () -> {
            if (authenticators.get().isEmpty()) {
                throw new IllegalStateException("no authenticator is installed");
            }
        }), Map.of());
        readyzChecks.add(new NamedCheck("authorization", () -> {
            List<String> unserved = authorizers.unserved();
            if (!unserved.isEmpty()) {
                throw new IllegalStateException("no authorizer is installed for authorization-mode "
                        + String.join(",", unserved));
            }
        }), Map.of());
        readyzChecks.add(shutdown, Map.of(org.osgi.framework.Constants.SERVICE_RANKING, Integer.MIN_VALUE));
    }

    static ServerConnector httpsConnector(Server server, ServingCertificates serving, TlsProvider.Choice provider,
                                                  TlsOptions options,
                                                  int maxStreams) {
        return httpsConnector(server, serving, provider, options, maxStreams, ConnectionTimeouts.READ_HEADER_TIMEOUT,
                ConnectionTimeouts.IDLE_TIMEOUT);
    }

    /** The connector with kube-apiserver's read-header and idle timeouts as given (shorter ones in tests). */
    static ServerConnector httpsConnector(Server server, ServingCertificates serving, TlsProvider.Choice provider,
                                          TlsOptions options, int maxStreams, Duration readHeaderTimeout,
                                          Duration idleTimeout) {
        HttpConfiguration http = new HttpConfiguration();
        // Go's http.DefaultMaxHeaderBytes, which kube-apiserver serves with: large OIDC tokens and
        // impersonation headers fit (Jetty's default is 8 KiB, and more was a 431).
        http.setRequestHeaderSize(MAX_HEADER_BYTES);
        http.setSendServerVersion(false);
        http.setSendDateHeader(true);
        SecureRequestCustomizer secure = new SecureRequestCustomizer();
        secure.setSniHostCheck(false);
        http.addCustomizer(secure);
        http.addCustomizer(new ConnectionTimeouts.Customizer());

        SslContextFactory.Server tls = new SslContextFactory.Server();
        serve(tls, provider, serving);
        // Clients may present a certificate; the authenticators verify it (as kube-apiserver asks for one
        // without verifying it in the handshake), so one from an unknown CA is a 401, not a failed handshake.
        tls.setWantClientAuth(true);
        tls.setTrustAll(true);
        options.applyTo(tls);
        tls.setCipherComparator(HTTP2Cipher.COMPARATOR);
        tls.setUseCipherSuitesOrder(true);

        HttpConnectionFactory http1 = new HttpConnectionFactory(http);
        HTTP2ServerConnectionFactory http2 = new HTTP2ServerConnectionFactory(http) {
            @Override
            public Connection newConnection(Connector connector, EndPoint endPoint) {
                Connection connection = super.newConnection(connector, endPoint);
                // The frames a connection has queued are written together up to this size (Jetty's
                // default is 32 KiB): a large response then leaves in writes of several TLS records.
                ((HTTP2Connection) connection).getSession().setWriteThreshold(HTTP2_WRITE_THRESHOLD);
                return connection;
            }
        };
        // Watches stream for up to an hour without necessarily writing; let them.
        http2.setStreamIdleTimeout(JettyAPIResponse.LONG_RUNNING_IDLE_TIMEOUT_MILLIS);
        // A client's informers share one connection (client-go opens another past the limit).
        http2.setMaxConcurrentStreams(maxStreams);
        // WebSockets over HTTP/2 (RFC 8441), for the clients that open watches that way.
        http2.setConnectProtocolEnabled(true);
        ALPNServerConnectionFactory alpn = new ALPNServerConnectionFactory();
        alpn.setDefaultProtocol(http1.getProtocol());
        SslConnectionFactory ssl = new GatheringSslConnectionFactory(tls, alpn.getProtocol(), readHeaderTimeout.toMillis());
        // Encrypted bytes go to the socket from direct buffers: a heap buffer would be copied into a
        // temporary direct one by every write (a large LIST or a busy watch connection writes a lot).
        ssl.setDirectBuffersForEncryption(true);
        ssl.setDirectBuffersForDecryption(true);
        ServerConnector connector = new ServerConnector(server, ssl, alpn, http2, http1);
        // A keep-alive connection waits for its next request as long as kube-apiserver's IdleTimeout
        // lets it; one that sends nothing, half a handshake or half a header is closed at the
        // ConnectionTimeouts' deadline first. A watch makes its connection's timeout as long as it lasts.
        connector.setIdleTimeout(idleTimeout.toMillis());
        return connector;
    }

    /**
     * Makes {@code tls} serve {@code certificates}, with the JDK's TLS or the chosen provider's; SNI
     * certificates are chosen by a key manager of ours, which either TLS implementation calls.
     */
    static void serve(SslContextFactory.Server tls, TlsProvider.Choice provider, ServingCertificates certificates) {
        if (provider.provider() == null && certificates.named().isEmpty()) {
            tls.setKeyStore(certificates.fallback().store());
            tls.setKeyStorePassword(new String(certificates.fallback().password()));
        } else {
            tls.setSslContext(sslContext(provider.provider(), certificates));
        }
    }

    /** An SSLContext of {@code provider} (the JDK's when null) serving the certificates. */
    private static SSLContext sslContext(Provider provider, ServingCertificates certificates) {
        try {
            KeyManager[] keys;
            if (certificates.named().isEmpty()) {
                KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                factory.init(certificates.fallback().store(), certificates.fallback().password());
                keys = factory.getKeyManagers();
            } else {
                keys = new KeyManager[] {new SniKeyManager(certificates)};
            }
            SSLContext context = provider == null ? SSLContext.getInstance("TLS") : SSLContext.getInstance("TLS", provider);
            context.init(keys, new TrustManager[] {ClientCertificates.VERIFIED_LATER}, null);
            return context;
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException("cannot set up TLS with " + (provider == null ? "the JDK" : provider.getName())
                    + ": " + e.getMessage(), e);
        }
    }

    /** {@code --tls-cert-file} and {@code --tls-private-key-file}, or null when neither is given. */
    private static CertKeyFiles servingFiles(Settings settings) {
        String cert = settings.get("tls-cert-file", "");
        String key = settings.get("tls-private-key-file", "");
        if (cert.isEmpty() && key.isEmpty()) {
            return null;
        }
        if (cert.isEmpty() || key.isEmpty()) {
            throw new IllegalArgumentException("--tls-cert-file and --tls-private-key-file must be given together");
        }
        return new CertKeyFiles(Path.of(cert).toAbsolutePath(), Path.of(key).toAbsolutePath());
    }

    /** The {@code --tls-sni-cert-key} values, in the order given (the launcher joins them with semicolons). */
    private static List<SniCertKey> sniCertKeys(Settings settings) {
        List<SniCertKey> sni = new ArrayList<>();
        for (String value : settings.get("tls-sni-cert-key", "").split(";")) {
            if (!value.isBlank()) {
                sni.add(SniCertKey.parse(value));
            }
        }
        return List.copyOf(sni);
    }

    private static QueuedThreadPool threadPool() {
        // Cache watches hold no thread (their writers have a pool of their own), but a watch on an
        // uncached storage holds one while it streams, so the pool has room for those.
        QueuedThreadPool pool = new QueuedThreadPool(2_000, 8);
        pool.setName("kubelix-apiserver");
        return pool;
    }

    /** An IP address, as kube's {@code --bind-address} is; a host name is never looked up. */
    private static InetAddress parseBindAddress(String bindAddress) {
        IP ip = IP.parseIPSloppy(bindAddress);
        if (ip == null) {
            throw new IllegalArgumentException("invalid bind-address \"" + bindAddress + "\": must be an IP address");
        }
        return ip.toInetAddress();
    }

    /**
     * The names the serving certificate covers besides loopback: the bind address, the advertise
     * address (so a client reaching this host by its address without SNI is served a certificate
     * naming it), kube's in-cluster names of the {@code kubernetes} service and its cluster IP (the
     * first of {@code --service-cluster-ip-range}), as kube-apiserver's self-signed certificate has
     * them, and the operator's own {@code --tls-san} names (k3s' flag).
     */
    static List<String> servingHosts(InetAddress bind, Settings settings) {
        List<String> hosts = new ArrayList<>();
        if (!bind.isAnyLocalAddress()) {
            hosts.add(bind.getHostAddress());
        }
        InetAddress advertise = IP.parseIPSloppy(KubernetesServiceController.advertiseAddress(
                settings.get("advertise-address", null), bind.getHostAddress())).toInetAddress();
        if (!advertise.isLoopbackAddress() && !advertise.equals(bind)) {
            hosts.add(advertise.getHostAddress());
        }
        hosts.addAll(List.of("kubernetes", "kubernetes.default", "kubernetes.default.svc",
                "kubernetes.default.svc.cluster.local"));
        String range = settings.get("service-cluster-ip-range", KubernetesServiceController.DEFAULT_SERVICE_CIDR);
        try {
            hosts.add(KubernetesService.firstAddress(range.split(",")[0].trim()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid service-cluster-ip-range \"" + range + "\": " + e.getMessage());
        }
        for (String san : settings.get("tls-san", "").split(",")) {
            if (!san.isBlank()) {
                hosts.add(san.trim());
            }
        }
        return hosts;
    }

    private static String urlHost(InetAddress bind) {
        if (bind.isAnyLocalAddress()) {
            return "127.0.0.1";
        }
        String h = bind.getHostAddress();
        return h.contains(":") ? "[" + h + "]" : h;
    }

    private static List<String> asStrings(Object v) {
        if (v instanceof String[] a) {
            return List.of(a);
        }
        if (v instanceof java.util.Collection<?> c) {
            return c.stream().map(Object::toString).toList();
        }
        return List.of(v.toString());
    }

    private record NamedCheck(String name, Check probe) implements HealthChecker {
        @Override
        public void check() throws Exception {
            probe.run();
        }
    }

    @FunctionalInterface
    private interface Check {
        void run() throws Exception;
    }
}
