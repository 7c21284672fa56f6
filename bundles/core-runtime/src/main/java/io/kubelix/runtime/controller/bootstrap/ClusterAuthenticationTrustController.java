package io.kubelix.runtime.controller.bootstrap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.authn.ClusterAuthenticationSource;
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
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * kube-apiserver's cluster-authentication-trust controller
 * ({@code start-cluster-authentication-info-controller}): publishes whom the server's authenticators
 * trust ({@link ClusterAuthenticationSource}: the client CA, the front proxies' CA and request header
 * settings) in {@code kube-system/extension-apiserver-authentication}, where extension API servers
 * read it. The ConfigMap is written when a source comes, goes or changes, when someone edits or
 * deletes it, and checked every {@link #RECHECK} so that a CA file changed on disk is published.
 * The hook completes at once, as kube's: nothing waits for the ConfigMap.
 */
@Component(service = PostStartHook.class)
public final class ClusterAuthenticationTrustController implements PostStartHook {
    static final String NAMESPACE = "kube-system";
    static final String NAME = "extension-apiserver-authentication";
    static final GroupVersionResource CONFIG_MAPS = new GroupVersionResource("", "v1", "configmaps");
    /** kube checks every minute besides watching its files; the files are only stat'ed here, so more often. */
    static final Duration RECHECK = Duration.ofSeconds(10);
    private static final String KEY = NAMESPACE + "/" + NAME;
    /** The key of the periodic check, which alone schedules the next one, so there is one chain of them. */
    private static final String RECHECK_KEY = KEY + "#recheck";
    private static final Logger LOG = LoggerFactory.getLogger(ClusterAuthenticationTrustController.class);

    private final ObjectMapper json = new ObjectMapper();
    private final List<ClusterAuthenticationSource> sources = new CopyOnWriteArrayList<>();
    private final WorkQueue<String> queue = WorkQueue.withDefaultRateLimiter("cluster_authentication_trust_controller");
    private final ServedObjects objects;
    private final SharedIndexInformer configMaps;
    private final Clock clock;
    private final QueueWorkers<String> workers;
    private final ResourceEventHandlerRegistration registration;
    private final Runnable unsubscribe;

    @Activate
    public ClusterAuthenticationTrustController(@Reference InformerFactory informers, @Reference ServedResources served) {
        this(informers, served, Clock.systemUTC(), RECHECK);
    }

    ClusterAuthenticationTrustController(InformerFactory informers, ServedResources served, Clock clock,
                                         Duration recheck) {
        this.objects = new ServedObjects(served);
        this.configMaps = informers.forResource(CONFIG_MAPS);
        this.clock = clock;
        this.workers = new QueueWorkers<>("cluster_authentication_trust_controller", queue, 1, key -> {
            sync();
            if (key.equals(RECHECK_KEY)) {
                queue.addAfter(RECHECK_KEY, recheck);
            }
        });
        this.registration = configMaps.addEventHandler(EventHandlers.onAnyChange(cm -> {
            if (NAMESPACE.equals(cm.path("metadata").path("namespace").asText())
                    && NAME.equals(cm.path("metadata").path("name").asText())) {
                queue.add(KEY);
            }
        }, false));
        // configmaps' plugin arriving (at start, or updated)
        this.unsubscribe = served.onChange(() -> queue.add(KEY));
        queue.add(RECHECK_KEY);
        workers.start();
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
    void addSource(ClusterAuthenticationSource source) {
        sources.add(source);
        queue.add(KEY);
    }

    void removeSource(ClusterAuthenticationSource source) {
        sources.remove(source);
        queue.add(KEY);
    }

    @Deactivate
    void deactivate() {
        unsubscribe.run();
        registration.close();
        workers.stop();
    }

    @Override
    public String name() {
        return "start-cluster-authentication-info-controller";
    }

    @Override
    public void run() {
    }

    /** syncConfigMap: the ConfigMap's trust combined with the sources', written when that changes it. */
    void sync() throws IOException {
        if (!objects.served(CONFIG_MAPS)) {
            LOG.debug("cluster_authentication_trust_controller: waiting for configmaps to be served");
            return;
        }
        if (!configMaps.hasSynced()) {
            // Expected while the server starts: retried with back-off, warned about only if it lasts.
            throw StatusException.serviceUnavailable("the configmaps informer has not synced yet");
        }
        ObjectNode existing = configMaps.lister().byNamespace(NAMESPACE).get(NAME).orElse(null);
        ClusterAuthenticationTrust trust = existing == null ? ClusterAuthenticationTrust.NONE
                : ClusterAuthenticationTrust.of(existing.path("data"), json);
        for (ClusterAuthenticationSource source : sources) {
            trust = trust.combine(ClusterAuthenticationTrust.of(source.clusterAuthenticationInfo()), clock.instant());
        }
        ObjectNode data = trust.data(json);
        if (existing != null && data.equals(dataOf(existing))) {
            return;
        }
        LOG.info("writing updated authentication info to {} configmaps/{}", NAMESPACE, NAME);
        try {
            objects.update(CONFIG_MAPS, NAMESPACE, NAME, current -> {
                current.set("data", data);
                return current;
            });
        } catch (StatusException e) {
            if (e.reason() != StatusReason.NOT_FOUND) {
                throw e;
            }
            ObjectNode configMap = json.createObjectNode().put("apiVersion", "v1").put("kind", "ConfigMap");
            configMap.putObject("metadata").put("namespace", NAMESPACE).put("name", NAME);
            configMap.set("data", data);
            objects.create(CONFIG_MAPS, configMap);
        }
    }

    /**
     * A ConfigMap's data, empty when absent: the configmaps Store drops an empty map (Go's omitempty),
     * and kube compares data semantically, nil and empty alike, so that no write follows.
     */
    private ObjectNode dataOf(ObjectNode configMap) {
        JsonNode data = configMap.get("data");
        return data instanceof ObjectNode o ? o : json.createObjectNode();
    }
}
