package io.kubelix.runtime.storage;

import io.kubelix.api.errors.StatusException;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.server.HealthChecker;
import io.kubelix.api.storage.StorageBackend;
import io.kubelix.api.storage.StorageInterface;
import io.kubelix.api.storage.ValueTransformer;
import io.kubelix.runtime.server.Lifecycle;
import io.kubelix.runtime.server.PluginSwaps;
import io.kubelix.runtime.server.Settings;
import io.kubelix.runtime.storage.cacher.Cacher;
import io.kubelix.runtime.storage.cacher.CacherStats;
import io.kubelix.runtime.storage.cacher.CacherOptions;
import io.kubelix.runtime.storage.cacher.EventWindow;
import io.kubelix.runtime.storage.encryptionconfig.DynamicTransformers;
import io.kubelix.runtime.server.GenericAPIServer;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The StorageFactory: which backend stores each resource. The backend is the
 * {@link StorageBackend} service named by {@code --storage-backend} (default {@code memory}).
 * Storages handed out belong to core-runtime and are kept per key prefix, so they outlive the
 * resource bundles that use them; they follow the backend when its bundle is updated (requests
 * meanwhile wait for its new revision, at most for {@link PluginSwaps}' grace period), and answer
 * 503 while it is missing. Each resource's storage is decorated by a Cacher (the watch cache;
 * {@code --watch-cache=false} turns it off, {@code --default-watch-cache-size} sizes its event
 * window). Every value a backend stores passes through its resource's transformer, the encryption
 * at rest of {@code --encryption-provider-config} (kube's storage.Config.Transformer), whatever
 * the backend. Also the {@code storage-backend} readiness check.
 */
@Component(service = {StorageFactory.class, HealthChecker.class}, configurationPid = StorageFactory.PID,
        property = HealthChecker.ENDPOINTS_PROPERTY + "=readyz")
public final class StorageFactory implements HealthChecker {
    public static final String PID = "io.kubelix.storage";
    private static final Logger LOG = LoggerFactory.getLogger(StorageFactory.class);

    private final String backendName;
    private final boolean watchCache;
    private final CacherOptions cacherOptions;
    private final DynamicTransformers transformers;
    private final Map<String, StorageBackend> backends = new ConcurrentHashMap<>();
    private final Map<String, StorageInterface> storages = new ConcurrentHashMap<>();
    private final Map<String, StorageInterface> rawStorages = new ConcurrentHashMap<>();
    /** The watch caches by resource ({@code pods}, {@code deployments.apps}), for lookups on the request path. */
    private final Map<String, Cacher> cachersByResource = new ConcurrentHashMap<>();
    /**
     * Backends whose bundle is being updated, with the {@link System#nanoTime()} until which
     * requests wait for the new revision; guarded by itself, notified when a backend registers.
     */
    private final Map<String, Long> swapping = new java.util.HashMap<>();
    private final PluginSwaps swaps;
    /** Told when a storage backend comes or goes. */
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

    @Activate
    public StorageFactory(Map<String, Object> config, BundleContext context, @Reference PluginSwaps swaps) {
        this.swaps = swaps;
        Settings settings = new Settings(config, context);
        backendName = settings.get("storage-backend", "memory");
        watchCache = Boolean.parseBoolean(settings.get("watch-cache", "true"));
        // Unset, each resource's window is sized by time and count, as kube-apiserver's; set, it is fixed.
        EventWindow window = settings.get("default-watch-cache-size", null) == null
                ? EventWindow.DEFAULT
                : EventWindow.fixed(settings.getInt("default-watch-cache-size", 0, 1, 10_000_000));
        cacherOptions = CacherOptions.DEFAULT.withEventWindow(window);
        LOG.info("storage backend: {}; watch cache: {}", backendName, watchCache ? "on, " + window.describe() : "off");
        try {
            transformers = encryption(settings);
        } catch (IllegalArgumentException e) {
            // kube-apiserver does not start with an encryption configuration it cannot use
            GenericAPIServer.failed(context, e);
            throw e;
        }
    }

    /** kube's {@code --encryption-provider-config} and {@code --encryption-provider-config-automatic-reload}. */
    static DynamicTransformers encryption(Settings settings) {
        String file = settings.get("encryption-provider-config", "");
        boolean reload = Boolean.parseBoolean(settings.get("encryption-provider-config-automatic-reload", "false"));
        if (file.isEmpty()) {
            if (reload) {
                throw new IllegalArgumentException(
                        "--encryption-provider-config-automatic-reload must be set with --encryption-provider-config");
            }
            return DynamicTransformers.none();
        }
        return DynamicTransformers.load(Path.of(file), reload ? DynamicTransformers.RELOAD_INTERVAL : null);
    }

    @Deactivate
    void deactivate() {
        transformers.close();
        storages.values().forEach(s -> {
            if (s instanceof Cacher c) {
                c.stop();
            }
        });
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
    void addBackend(StorageBackend backend, Map<String, Object> props) {
        Object name = props.get(StorageBackend.NAME_PROPERTY);
        if (name == null) {
            LOG.warn("ignoring storage backend {}: it has no {} service property", backend.getClass().getName(),
                    StorageBackend.NAME_PROPERTY);
            return;
        }
        backends.put(name.toString(), backend);
        boolean swapped;
        synchronized (swapping) {
            swapped = swapping.remove(name.toString()) != null;
            swapping.notifyAll();
        }
        LOG.info("storage backend {}: {}{}", swapped ? "updated" : "available", name,
                name.equals(backendName) ? " (in use)" : "");
        listeners.forEach(Runnable::run);
    }

    /** Runs {@code listener} (which must not block) whenever a storage backend comes or goes; returns what removes it. */
    public Runnable onBackendChange(Runnable listener) {
        listeners.add(listener);
        return () -> listeners.remove(listener);
    }

    void removeBackend(StorageBackend backend, Map<String, Object> props) {
        Object name = props.get(StorageBackend.NAME_PROPERTY);
        if (name == null) {
            return;
        }
        boolean restarting = swaps.restarting(props);
        boolean removed;
        synchronized (swapping) {
            if (restarting) {
                // The wait starts before the backend leaves: no request may find neither it nor the wait.
                swapping.put(name.toString(), System.nanoTime() + swaps.grace().toNanos());
            }
            removed = backends.remove(name.toString(), backend);
            if (restarting && !removed) {
                swapping.remove(name.toString());
            }
            swapping.notifyAll();
        }
        if (removed) {
            if (restarting) {
                // An update: the new revision registers in a moment, and requests wait for it.
                LOG.info("storage backend {} is being updated: requests wait for its new revision", name);
                swaps.afterGrace(() -> {
                    boolean expired;
                    synchronized (swapping) {
                        expired = swapping.remove(name.toString()) != null;
                    }
                    if (expired) {
                        LOG.warn("storage backend {} did not come back within {} s of its update", name,
                                swaps.grace().toSeconds());
                        listeners.forEach(Runnable::run);
                    }
                });
                return;
            }
            if (Lifecycle.stopping()) {
                LOG.debug("storage backend gone: {}", name);
            } else {
                LOG.info("storage backend gone: {}", name);
            }
            listeners.forEach(Runnable::run);
        }
    }

    /**
     * The storage of a resource's objects under {@code resourcePrefix}, behind the Cacher unless the
     * watch cache is off; the same instance for the same prefix.
     */
    public StorageInterface storageFor(GroupResource groupResource, String resourcePrefix) {
        if (rawStorages.containsKey(resourcePrefix)) {
            throw new IllegalArgumentException("storage prefix " + resourcePrefix + " is already used as raw storage");
        }
        return storages.computeIfAbsent(resourcePrefix, p -> {
            StorageInterface backend = new BackendStorage(groupResource, p, transformers.forResource(groupResource), this);
            if (!watchCache) {
                return backend;
            }
            Cacher cacher = new Cacher(backend, groupResource, p, cacherOptions);
            cachersByResource.put(groupResource.toString(), cacher);
            return cacher;
        });
    }

    /** The watch cache of a resource ({@code pods}, {@code deployments.apps}), or null when it has none. */
    public Cacher cacher(String groupResource) {
        return cachersByResource.get(groupResource);
    }

    /** The watch caches in front of the resources served so far (none when the watch cache is off). */
    public List<Cacher> cachers() {
        return storages.values().stream().filter(Cacher.class::isInstance).map(Cacher.class::cast).toList();
    }

    /** The counters of each resource's watch cache, by key prefix (none with {@code --watch-cache=false}). */
    public Map<String, CacherStats> watchCacheStats() {
        Map<String, CacherStats> stats = new java.util.TreeMap<>();
        storages.forEach((prefix, s) -> {
            if (s instanceof Cacher c) {
                stats.put(prefix, c.stats());
            }
        });
        return stats;
    }

    /**
     * Uncached storage under {@code resourcePrefix}, for state kept beside objects (allocators); never
     * encrypted, as kube refuses to encrypt the allocators, which have no REST API.
     */
    public StorageInterface rawStorageFor(String resourcePrefix) {
        if (storages.containsKey(resourcePrefix)) {
            throw new IllegalArgumentException("storage prefix " + resourcePrefix + " is already used by a resource");
        }
        return rawStorages.computeIfAbsent(resourcePrefix,
                p -> new BackendStorage(new GroupResource("", p), p, ValueTransformer.IDENTITY, this));
    }

    /** Whether the backend in use is there now, or being updated (requests wait for it). */
    public boolean available() {
        return backends.containsKey(backendName) || swapDeadline() != null;
    }

    /** The name of the backend in use ({@code --storage-backend}). */
    public String backendName() {
        return backendName;
    }

    /** The backend in use. @throws StatusException 503 while no bundle provides it */
    StorageBackend backend() {
        StorageBackend b = backends.get(backendName);
        if (b == null) {
            b = awaitUpdate();
        }
        if (b == null) {
            throw StatusException.serviceUnavailable("storage backend \"" + backendName + "\" is not available: no "
                    + "installed bundle provides it (available: " + backends.keySet() + ")");
        }
        return b;
    }

    /**
     * Waits, at most {@code max}, until {@code backend} is no longer the one in use: a backend that
     * refused a request because its bundle is stopping leaves the factory in a moment. Whether it left.
     */
    boolean awaitLeaving(StorageBackend backend, java.time.Duration max) {
        long deadline = System.nanoTime() + max.toNanos();
        synchronized (swapping) {
            while (backends.get(backendName) == backend) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                try {
                    swapping.wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return true;
        }
    }

    /** While the backend's bundle is being updated, waits for its new revision until the grace period ends. */
    private StorageBackend awaitUpdate() {
        synchronized (swapping) {
            StorageBackend b;
            while ((b = backends.get(backendName)) == null) {
                Long deadline = swapDeadline();
                long left = deadline == null ? 0 : deadline - System.nanoTime();
                if (left <= 0) {
                    return null;
                }
                try {
                    swapping.wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return null;
                }
            }
            return b;
        }
    }

    /** Until when requests wait for the backend in use, being updated; null when it is not. */
    private Long swapDeadline() {
        synchronized (swapping) {
            Long deadline = swapping.get(backendName);
            return deadline != null && deadline - System.nanoTime() > 0 ? deadline : null;
        }
    }

    @Override
    public String name() {
        return "storage-backend";
    }

    /** Ready while the backend is there or being updated; a probe never waits for an update. */
    @Override
    public void check() {
        if (swapDeadline() == null) {
            backend();
        }
    }
}
