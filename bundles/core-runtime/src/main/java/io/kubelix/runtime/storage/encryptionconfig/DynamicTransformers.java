package io.kubelix.runtime.storage.encryptionconfig;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.storage.ValueTransformer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * kube's DynamicTransformers and its DynamicEncryptionConfigContent controller: every resource's
 * transformer follows the configuration currently loaded, so a reload takes effect on the next
 * read and write of every storage without rebuilding any. Without
 * {@code --encryption-provider-config-automatic-reload} the file is read once, at start; with it,
 * the file's content is checked every few seconds (kube polls every minute) and a changed file that
 * loads replaces the configuration, while one that does not is logged and the last good one kept.
 */
public final class DynamicTransformers implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DynamicTransformers.class);
    /** How often a reloading configuration file is checked. */
    public static final Duration RELOAD_INTERVAL = Duration.ofSeconds(2);

    private final Path file;
    private final ObjectMapper yaml;
    private volatile ResourceTransformers current;
    private final ScheduledExecutorService timer;
    private String lastProblem;

    private DynamicTransformers(Path file, ObjectMapper yaml, ResourceTransformers current, Duration reloadInterval) {
        this.file = file;
        this.yaml = yaml;
        this.current = current;
        if (reloadInterval == null) {
            timer = null;
            return;
        }
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "kubelix-encryption-config");
            t.setDaemon(true);
            return t;
        });
        long millis = reloadInterval.toMillis();
        timer.scheduleWithFixedDelay(this::check, millis, millis, TimeUnit.MILLISECONDS);
    }

    /** No encryption: every resource is stored as it is. */
    public static DynamicTransformers none() {
        return new DynamicTransformers(null, null, null, null);
    }

    /**
     * Loads {@code file} now; with a {@code reloadInterval}, again whenever it changes.
     *
     * @throws IllegalArgumentException with kube's message when the file cannot be used
     */
    public static DynamicTransformers load(Path file, Duration reloadInterval) {
        ObjectMapper yaml = EncryptionConfigReader.yamlMapper();
        ResourceTransformers loaded = ResourceTransformers.load(file, yaml);
        LOG.info("encryption at rest from {}{}: {}", file, reloadInterval == null ? ""
                : " (reloaded when it changes)", loaded.describe());
        return new DynamicTransformers(file, yaml, loaded, reloadInterval);
    }

    /** The transformer of {@code resource}, following every reload. */
    public ValueTransformer forResource(GroupResource resource) {
        if (current == null) {
            return ValueTransformer.IDENTITY;
        }
        return new ValueTransformer() {
            /** The resource's transformer in the configuration it was looked up in, looked up again after a reload. */
            private volatile Resolved resolved;

            private ValueTransformer transformer() {
                ResourceTransformers now = current;
                Resolved r = resolved;
                if (r == null || r.in() != now) {
                    r = new Resolved(now, now.forResource(resource));
                    resolved = r;
                }
                return r.transformer();
            }

            @Override
            public Read transformFromStorage(byte[] stored, byte[] authenticatedData) {
                return transformer().transformFromStorage(stored, authenticatedData);
            }

            @Override
            public byte[] transformToStorage(byte[] data, byte[] authenticatedData) {
                return transformer().transformToStorage(data, authenticatedData);
            }

            @Override
            public String toString() {
                return "encryption of " + resource;
            }
        };
    }

    private record Resolved(ResourceTransformers in, ValueTransformer transformer) {
    }

    /** Loads the file again when its content changed since the last load. */
    synchronized void check() {
        try {
            if (ResourceTransformers.contentHash(file).equals(current.contentHash())) {
                return;
            }
            ResourceTransformers loaded = ResourceTransformers.load(file, yaml);
            current = loaded;
            lastProblem = null;
            LOG.info("encryption at rest reloaded from {}: {}", file, loaded.describe());
        } catch (RuntimeException e) {
            // logged once per distinct problem, not every check
            if (!Objects.equals(e.getMessage(), lastProblem)) {
                lastProblem = e.getMessage();
                LOG.error("error processing encryption config file {}: {}; the previous configuration stays in use",
                        file, e.getMessage());
            }
        }
    }

    @Override
    public void close() {
        if (timer != null) {
            timer.shutdownNow();
        }
    }
}
