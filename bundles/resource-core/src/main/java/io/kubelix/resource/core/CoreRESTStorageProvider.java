package io.kubelix.resource.core;

import io.kubelix.support.flags.FrameworkProperties;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.authn.TokenIssuer;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.api.informer.SharedInformerFactory;
import io.kubelix.api.registry.APIGroupInfo;
import io.kubelix.api.registry.Getter;
import io.kubelix.api.registry.RESTOptionsGetter;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.RESTStorageProvider;
import io.kubelix.api.registry.StandardStorage;
import io.kubelix.api.registry.UpdateOptions;
import io.kubelix.api.registry.Updater;
import io.kubelix.api.request.RequestContext;
import io.kubelix.resource.core.certificates.RootCACertPublisher;
import io.kubelix.resource.core.certificates.RootCAFile;
import io.kubelix.resource.core.config.ConfigSpecs;
import io.kubelix.resource.core.event.EventSpecs;
import io.kubelix.resource.core.namespace.NamespaceFinalizeStrategy;
import io.kubelix.resource.core.namespace.NamespaceLifecycle;
import io.kubelix.resource.core.namespace.NamespaceLister;
import io.kubelix.resource.core.namespace.NamespaceSpecs;
import io.kubelix.resource.core.namespace.NamespaceStatusStrategy;
import io.kubelix.resource.core.node.NodeStorage;
import io.kubelix.resource.core.pod.PodStorage;
import io.kubelix.resource.core.pod.PodTemplateStorage;
import io.kubelix.resource.core.quota.QuotaSpecs;
import io.kubelix.resource.core.quota.QuotaStatusWriter;
import io.kubelix.resource.core.quota.ResourceQuotaController;
import io.kubelix.resource.core.replicationcontroller.ReplicationControllerStorage;
import io.kubelix.resource.core.service.ServiceNetworkConfig;
import io.kubelix.resource.core.service.ServiceSpecs;
import io.kubelix.resource.core.serviceaccount.DefaultServiceAccounts;
import io.kubelix.resource.core.serviceaccount.ServiceAccountSpecs;
import io.kubelix.resource.core.serviceaccount.ServiceAccountTokenREST;
import io.kubelix.resource.core.volume.StorageProtectionController;
import io.kubelix.resource.core.volume.VolumeSpecs;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The core group's RESTStorageProvider (kube's core LegacyRESTStorageProvider): {@code /api/v1}
 * namespaces, configmaps and secrets, each a generic Store with its strategy and printer columns.
 *
 * <p>It also owns what follows from holding the namespace Store: it serves that Store to
 * {@link NamespaceLifecycle} as the bundle-private {@link NamespaceLister} service. The system
 * namespaces are core-runtime's {@code start-system-namespaces-controller} post-start hook.
 *
 * <p>Namespace deletion is immediate in this first cut: there is no Terminating phase because
 * emptying a namespace needs a namespace controller that knows every resource of every group.
 * The {@code kubernetes} finalizer is still set on create, as kube does, for when it comes.
 */
@Component(service = {RESTStorageProvider.class, NamespaceLister.class, QuotaStatusWriter.class})
public final class CoreRESTStorageProvider implements RESTStorageProvider, NamespaceLister, QuotaStatusWriter {
    static final String VERSION = "v1";

    private static final Logger LOG = LoggerFactory.getLogger(CoreRESTStorageProvider.class);
    /** How long a namespace lookup waits for the namespace Store while the group is being installed. */
    private static final Duration STORE_WAIT = Duration.ofSeconds(5);

    private final ScheduledExecutorService executor;
    private volatile StandardStorage namespaceStore;
    private final CompletableFuture<StandardStorage> namespaceStoreBuilt = new CompletableFuture<>();
    private final Supplier<String> rootCA;
    private DefaultServiceAccounts defaultServiceAccounts;
    private RootCACertPublisher rootCACertPublisher;
    private StorageProtectionController storageProtection;
    private ResourceQuotaController quotaController;
    private volatile Updater quotaStatusStore;
    private final CompletableFuture<Updater> quotaStatusStoreBuilt = new CompletableFuture<>();
    /** The service IP and node port ranges (--service-cluster-ip-range, --service-node-port-range). */
    @Reference
    private ServiceNetworkConfig serviceNetwork;
    /** The service account token issuer (an authn plugin); {@code serviceaccounts/token} is served while there is one. */
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private volatile TokenIssuer tokenIssuer;
    /** The server's informers, for the service account controller and the service allocation repair. */
    @Reference
    private SharedInformerFactory informers;

    @Activate
    public CoreRESTStorageProvider(BundleContext context) {
        this(Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "kubelix-resource-core");
            t.setDaemon(true);
            return t;
        }), RootCAFile.inDataDir(
                FrameworkProperties.withContainerDefaults(context::getProperty).apply(FrameworkProperties.DATA_DIR)));
    }

    /** For tests: the executor that runs the service allocators' repair, and no root CA. */
    CoreRESTStorageProvider(ScheduledExecutorService executor) {
        this(executor, () -> null);
    }

    private CoreRESTStorageProvider(ScheduledExecutorService executor, Supplier<String> rootCA) {
        this.executor = executor;
        this.rootCA = rootCA;
    }

    @Override
    public String groupName() {
        return "";
    }

    /**
     * Builds the Stores. It may be called again (core-runtime restarted); the newest
     * namespace Store then replaces the previous one for admission and bootstrap.
     */
    @Override
    public APIGroupInfo newRESTStorage(RESTOptionsGetter restOptionsGetter) {
        StandardStorage namespaces = restOptionsGetter.newStore(NamespaceSpecs.namespaceSpec());
        StandardStorage configMaps = restOptionsGetter.newStore(ConfigSpecs.configMapSpec());
        StandardStorage secrets = restOptionsGetter.newStore(ConfigSpecs.secretSpec());
        StandardStorage events = restOptionsGetter.newStore(EventSpecs.eventSpec());

        Map<String, RESTStorage> v1 = new LinkedHashMap<>();
        v1.put(NamespaceSpecs.NAMESPACES.resource(), namespaces);
        v1.put(NamespaceSpecs.NAMESPACES.resource() + "/status",
                restOptionsGetter.newStatusStore(namespaces, new NamespaceStatusStrategy()));
        v1.put(NamespaceSpecs.NAMESPACES.resource() + "/finalize",
                restOptionsGetter.newStatusStore(namespaces, new NamespaceFinalizeStrategy()));
        v1.put(ConfigSpecs.CONFIGMAPS.resource(), configMaps);
        v1.put(ConfigSpecs.SECRETS.resource(), secrets);
        v1.put(EventSpecs.EVENTS.resource(), events);
        PodStorage.install(restOptionsGetter, v1);
        PodTemplateStorage.install(restOptionsGetter, v1);
        ReplicationControllerStorage.install(restOptionsGetter, v1);
        NodeStorage.install(restOptionsGetter, v1);
        ServiceSpecs.install(v1, restOptionsGetter, serviceNetwork != null ? serviceNetwork : ServiceNetworkConfig.defaults(),
                informers != null ? informers.forResource(ServiceSpecs.SERVICES_V1) : null, executor);
        v1.put(ServiceAccountSpecs.SERVICE_ACCOUNTS.resource(),
                restOptionsGetter.newStore(ServiceAccountSpecs.serviceAccountSpec()));
        VolumeSpecs.install(v1, restOptionsGetter);
        QuotaSpecs.install(v1, restOptionsGetter);
        v1.put(ServiceAccountSpecs.SERVICE_ACCOUNTS.resource() + "/token", new ServiceAccountTokenREST(() -> tokenIssuer,
                (Getter) v1.get(ServiceAccountSpecs.SERVICE_ACCOUNTS.resource()), (Getter) v1.get("pods"), secrets,
                (Getter) v1.get("nodes")));

        namespaceStore = namespaces;
        namespaceStoreBuilt.complete(namespaces);
        quotaStatusStore = (Updater) v1.get(QuotaSpecs.RESOURCE_QUOTAS.resource() + "/status");
        quotaStatusStoreBuilt.complete(quotaStatusStore);
        synchronized (this) {
            if (defaultServiceAccounts != null) {
                defaultServiceAccounts.stop();
            }
            if (quotaController != null) {
                quotaController.stop();
            }
            if (rootCACertPublisher != null) {
                rootCACertPublisher.stop();
            }
            if (storageProtection != null) {
                storageProtection.stop();
            }
            // Without a framework (unit tests) there are no informers, and no service account controller.
            if (informers != null) {
                defaultServiceAccounts = new DefaultServiceAccounts(
                        (StandardStorage) v1.get(ServiceAccountSpecs.SERVICE_ACCOUNTS.resource()), informers);
                defaultServiceAccounts.start();
                quotaController = new ResourceQuotaController(this, informers);
                quotaController.start();
                rootCACertPublisher = new RootCACertPublisher(configMaps, rootCA, informers);
                rootCACertPublisher.start();
                storageProtection = new StorageProtectionController((StandardStorage) v1.get("persistentvolumeclaims"),
                        (StandardStorage) v1.get("persistentvolumes"), informers);
                storageProtection.start();
            }
        }
        LOG.info("built core/v1 storage: {}", v1.keySet());
        return new APIGroupInfo("", List.of(VERSION), Map.of(VERSION, v1));
    }

    @Override
    public Optional<ObjectNode> get(String name, boolean live) {
        StandardStorage store = namespaceStore();
        try {
            return Optional.of(store.get(RequestContext.system(""), name, live ? "" : "0"));
        } catch (StatusException e) {
            if (e.reason() == StatusReason.NOT_FOUND) {
                return Optional.empty();
            }
            throw e;
        }
    }

    @Override
    public void update(String namespace, String name, UnaryOperator<ObjectNode> change, boolean dryRun) {
        Updater store = quotaStatusStore;
        if (store == null) {
            try {
                store = quotaStatusStoreBuilt.get(STORE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException | ExecutionException e) {
                throw StatusException.serviceUnavailable("resource quota storage is not available yet");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw StatusException.serviceUnavailable("resource quota storage is not available yet");
            }
        }
        try {
            store.update(RequestContext.system(namespace), name, (ctx, old) -> {
                if (old == null) {
                    throw StatusException.notFound(QuotaSpecs.RESOURCE_QUOTAS, name);
                }
                ObjectNode changed = change.apply(old.deepCopy());
                if (changed == null) {
                    throw Unchanged.INSTANCE;
                }
                return changed;
            }, new UpdateOptions(dryRun, "resourcequota-controller"));
        } catch (Unchanged nothingToWrite) {
            // The quota is as it should be.
        }
    }

    /** Ends a status update that has nothing to write. */
    private static final class Unchanged extends RuntimeException {
        private static final long serialVersionUID = 1L;
        static final Unchanged INSTANCE = new Unchanged();

        private Unchanged() {
            super(null, null, false, false);
        }
    }

    /**
     * The namespace Store, waiting a moment for it when this provider's API group is being
     * installed (the admission plugin can be asked before that finishes).
     */
    private StandardStorage namespaceStore() {
        StandardStorage store = namespaceStore;
        if (store != null) {
            return store;
        }
        try {
            namespaceStoreBuilt.get(STORE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            store = namespaceStore;
            if (store == null) {
                throw StatusException.serviceUnavailable("namespace storage is not available");
            }
            return store;
        } catch (TimeoutException | ExecutionException e) {
            throw StatusException.serviceUnavailable("namespace storage is not available yet");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw StatusException.serviceUnavailable("namespace storage is not available yet");
        }
    }

    @Deactivate
    void deactivate() {
        synchronized (this) {
            if (defaultServiceAccounts != null) {
                defaultServiceAccounts.stop();
                defaultServiceAccounts = null;
            }
            if (quotaController != null) {
                quotaController.stop();
                quotaController = null;
            }
            if (rootCACertPublisher != null) {
                rootCACertPublisher.stop();
                rootCACertPublisher = null;
            }
            if (storageProtection != null) {
                storageProtection.stop();
                storageProtection = null;
            }
        }
        // namespaceStore stays: NamespaceLifecycle may still ask this instance while the bundle stops
        // (its lister goes before it does), and the Store's storage belongs to core-runtime.
        executor.shutdownNow();
    }
}
