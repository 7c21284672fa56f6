package io.kubelix.runtime.flowcontrol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.api.server.PostStartHook;
import io.kubelix.runtime.controller.ServedObjects;
import io.kubelix.runtime.controller.ServedResources;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * kube's {@code priority-and-fairness-config-producer} post-start hook and its ensurer: once the
 * flowcontrol resources are served, the bootstrap objects are in storage, priority levels first.
 * A mandatory object is created when missing and kept at its bootstrap spec (the {@code exempt}
 * level's {@code spec.exempt} excepted, which is the operator's); a suggested one is created when
 * missing and its spec updated only while annotated {@code apf.kubernetes.io/autoupdate-spec: "true"}
 * (or, without a valid annotation, while its generation is 1: nobody changed it). This is checked
 * again every minute and whenever what is served changes. While the resources are not served the
 * hook completes at once: the bootstrap configuration is then in force in memory.
 */
@Component(immediate = true, service = PostStartHook.class)
public final class ConfigProducer implements PostStartHook {
    static final Duration PERIOD = Duration.ofMinutes(1);
    private static final Logger LOG = LoggerFactory.getLogger(ConfigProducer.class);

    private final ServedResources served;
    private final ServedObjects objects;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "kubelix-apf-config-producer");
        t.setDaemon(true);
        return t;
    });
    private final Runnable unsubscribe;

    /** Active only with priority and fairness on, as kube runs the hook only then. */
    @Activate
    public ConfigProducer(@Reference PriorityAndFairness apf, @Reference ServedResources served) {
        this.served = served;
        this.objects = new ServedObjects(served);
        this.unsubscribe = served.onChange(() -> timer.execute(this::ensureQuietly));
        timer.scheduleWithFixedDelay(this::ensureQuietly, PERIOD.toMillis(), PERIOD.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Deactivate
    void deactivate() {
        unsubscribe.run();
        timer.shutdownNow();
    }

    @Override
    public String name() {
        return "priority-and-fairness-config-producer";
    }

    @Override
    public void run() throws InterruptedException {
        // The storage comes first: until then nothing can be said to be served or not.
        while (!served.storageAvailable()) {
            Thread.sleep(100);
        }
        ensure();
    }

    private void ensureQuietly() {
        if (!served.storageAvailable()) {
            // Plugins serve before the storage plugin has started; the post-start hook waits for it.
            return;
        }
        try {
            ensure();
        } catch (RuntimeException e) {
            if (!served.storageAvailable() || e instanceof io.kubelix.api.errors.StatusException s && s.code() == 503) {
                // The storage plugin went away meanwhile (a stop, an update): the next pass tries again.
                LOG.debug("priority and fairness: the storage went away while ensuring the bootstrap configuration: {}",
                        e.toString());
                return;
            }
            LOG.warn("priority and fairness: cannot ensure the bootstrap configuration: {}", e.toString());
        }
    }

    /** Creates or updates the bootstrap objects when the flowcontrol resources are served; a no-op otherwise. */
    synchronized void ensure() {
        if (!objects.served(ConfigController.PRIORITY_LEVELS) || !objects.served(ConfigController.FLOW_SCHEMAS)) {
            return;
        }
        for (ObjectNode pl : BootstrapConfiguration.mandatoryPriorityLevels()) {
            ensure(ConfigController.PRIORITY_LEVELS, pl, true);
        }
        for (ObjectNode pl : BootstrapConfiguration.suggestedPriorityLevels()) {
            ensure(ConfigController.PRIORITY_LEVELS, pl, false);
        }
        for (ObjectNode fs : BootstrapConfiguration.mandatoryFlowSchemas()) {
            ensure(ConfigController.FLOW_SCHEMAS, fs, true);
        }
        for (ObjectNode fs : BootstrapConfiguration.suggestedFlowSchemas()) {
            ensure(ConfigController.FLOW_SCHEMAS, fs, false);
        }
    }

    private void ensure(GroupVersionResource resource, ObjectNode bootstrap, boolean mandatory) {
        String name = bootstrap.path("metadata").path("name").asText();
        ObjectNode current;
        try {
            current = objects.get(resource, "", name);
        } catch (StatusException e) {
            if (e.reason() != StatusReason.NOT_FOUND) {
                throw e;
            }
            create(resource, bootstrap);
            return;
        }
        boolean exemptLevel = resource.equals(ConfigController.PRIORITY_LEVELS) && name.equals(BootstrapConfiguration.EXEMPT);
        if (!mandatory && !autoUpdate(current)) {
            return;
        }
        if (exemptLevel ? current.path("spec").path("type").asText().equals("Exempt")
                && current.path("spec").path("limited").isMissingNode()
                : contains(current.path("spec"), bootstrap.path("spec"))) {
            return;
        }
        objects.update(resource, "", name, obj -> {
            ObjectNode spec = bootstrap.path("spec").deepCopy();
            if (exemptLevel && obj.path("spec").has("exempt")) {
                spec.set("exempt", obj.path("spec").path("exempt"));
            }
            obj.set("spec", spec);
            obj.with("metadata").with("annotations").put(BootstrapConfiguration.AUTO_UPDATE_ANNOTATION, "true");
            return obj;
        });
        LOG.info("priority and fairness: {} {} updated to its bootstrap spec ({})", resource.resource(), name,
                mandatory ? "mandatory" : "suggested, annotated to auto-update");
    }

    private void create(GroupVersionResource resource, ObjectNode bootstrap) {
        try {
            objects.create(resource, bootstrap.deepCopy());
            LOG.info("priority and fairness: created {} {}", resource.resource(),
                    bootstrap.path("metadata").path("name").asText());
        } catch (StatusException e) {
            if (e.reason() != StatusReason.ALREADY_EXISTS) {
                throw e;
            }
        }
    }

    /** kube's shouldUpdateSpec: the annotation when it is a boolean, else whether nobody changed the object. */
    static boolean autoUpdate(JsonNode obj) {
        String value = obj.path("metadata").path("annotations").path(BootstrapConfiguration.AUTO_UPDATE_ANNOTATION)
                .asText("");
        if (value.equalsIgnoreCase("true") || value.equals("1") || value.equals("t")) {
            return true;
        }
        if (value.equalsIgnoreCase("false") || value.equals("0") || value.equals("f")) {
            return false;
        }
        return obj.path("metadata").path("generation").asLong(0) == 1;
    }

    /**
     * Whether {@code current} has every field of {@code wanted} with its value (lists of the same
     * length, item by item): the fields the flowcontrol plugin's defaulting adds do not count as a
     * change, as kube compares with the defaulted bootstrap object.
     */
    static boolean contains(JsonNode current, JsonNode wanted) {
        if (wanted.isObject()) {
            if (!current.isObject()) {
                return false;
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = wanted.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (!contains(current.path(e.getKey()), e.getValue())) {
                    return false;
                }
            }
            return true;
        }
        if (wanted.isArray()) {
            if (!current.isArray() || current.size() != wanted.size()) {
                return false;
            }
            for (int i = 0; i < wanted.size(); i++) {
                if (!contains(current.get(i), wanted.get(i))) {
                    return false;
                }
            }
            return true;
        }
        return wanted.equals(current) || wanted.isNumber() && current.isNumber() && wanted.asLong() == current.asLong();
    }
}
