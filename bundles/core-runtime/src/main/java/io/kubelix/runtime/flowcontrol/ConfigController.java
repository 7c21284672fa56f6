package io.kubelix.runtime.flowcontrol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.informer.ResourceEventHandler;
import io.kubelix.api.informer.ResourceEventHandlerRegistration;
import io.kubelix.api.informer.SharedIndexInformer;
import io.kubelix.api.schema.GroupVersionResource;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * kube's APF configuration controller: while the flowcontrol resources are served, the stored
 * FlowSchemas and PriorityLevelConfigurations are the configuration in force, and each FlowSchema's
 * {@code Dangling} condition says whether the level it names exists (True, reason NotFound, when
 * it does not); while they are not (their plugin is absent), kube's bootstrap configuration is.
 * Active only with priority and fairness on (the server registers {@link PriorityAndFairness}).
 */
@Component(immediate = true, service = {})
public final class ConfigController {
    static final GroupVersionResource FLOW_SCHEMAS =
            new GroupVersionResource("flowcontrol.apiserver.k8s.io", "v1", "flowschemas");
    static final GroupVersionResource PRIORITY_LEVELS =
            new GroupVersionResource("flowcontrol.apiserver.k8s.io", "v1", "prioritylevelconfigurations");
    static final GroupVersionResource FLOW_SCHEMA_STATUS =
            new GroupVersionResource("flowcontrol.apiserver.k8s.io", "v1", "flowschemas/status");
    private static final Logger LOG = LoggerFactory.getLogger(ConfigController.class);
    private static final String KEY = "configuration";

    private final PriorityAndFairness apf;
    private final ServedObjects objects;
    private final SharedIndexInformer flowSchemas;
    private final SharedIndexInformer priorityLevels;
    private final WorkQueue<String> queue = WorkQueue.withDefaultRateLimiter("apf-config-controller");
    private final QueueWorkers<String> workers;
    private final List<ResourceEventHandlerRegistration> registrations;
    private final Runnable unsubscribe;
    /** Whether the stored objects were in force at the last sync; for the log. */
    private Boolean storedInForce;

    @Activate
    public ConfigController(@Reference PriorityAndFairness apf, @Reference InformerFactory informers,
                            @Reference ServedResources served) {
        this.apf = apf;
        this.objects = new ServedObjects(served);
        this.flowSchemas = informers.forResource(FLOW_SCHEMAS);
        this.priorityLevels = informers.forResource(PRIORITY_LEVELS);
        this.workers = new QueueWorkers<>("apf-config-controller", queue, 1, key -> sync());
        ResourceEventHandler any = EventHandlers.onAnyChange(obj -> queue.add(KEY), false);
        this.registrations = List.of(flowSchemas.addEventHandler(any), priorityLevels.addEventHandler(any));
        this.unsubscribe = served.onChange(() -> queue.add(KEY));
        queue.add(KEY);
        workers.start();
    }

    @Deactivate
    void deactivate() {
        unsubscribe.run();
        registrations.forEach(ResourceEventHandlerRegistration::close);
        workers.stop();
    }

    private void sync() {
        boolean served = objects.served(FLOW_SCHEMAS) && objects.served(PRIORITY_LEVELS);
        if (!served || !flowSchemas.hasSynced() || !priorityLevels.hasSynced()) {
            apf.apply(BootstrapConfiguration.flowSchemas(), BootstrapConfiguration.priorityLevels());
            logInForce(false);
            return;
        }
        List<ObjectNode> schemas = flowSchemas.lister().list();
        List<ObjectNode> levels = priorityLevels.lister().list();
        apf.apply(schemas, levels);
        logInForce(true);
        Set<String> levelNames = new HashSet<>();
        levels.forEach(pl -> levelNames.add(pl.path("metadata").path("name").asText()));
        for (ObjectNode fs : schemas) {
            updateDangling(fs, levelNames);
        }
    }

    private void logInForce(boolean stored) {
        if (!Objects.equals(storedInForce, stored)) {
            storedInForce = stored;
            LOG.info("priority and fairness: {}", stored ? "the stored flowschemas and prioritylevelconfigurations are in force"
                    : "kube's bootstrap configuration is in force (flowcontrol.apiserver.k8s.io/v1 is not served)");
        }
    }

    /** Writes the FlowSchema's Dangling condition when it changed, as kube's controller does. */
    private void updateDangling(ObjectNode fs, Set<String> levelNames) {
        String name = fs.path("metadata").path("name").asText();
        String level = fs.path("spec").path("priorityLevelConfiguration").path("name").asText();
        ObjectNode wanted = danglingCondition(level, levelNames.contains(level));
        JsonNode current = condition(fs, "Dangling");
        if (current != null && current.path("status").asText().equals(wanted.path("status").asText())
                && current.path("reason").asText().equals(wanted.path("reason").asText())
                && current.path("message").asText().equals(wanted.path("message").asText())) {
            return;
        }
        try {
            objects.update(FLOW_SCHEMA_STATUS, "", name, obj -> {
                ArrayNode conditions = obj.with("status").withArray("conditions");
                for (int i = conditions.size() - 1; i >= 0; i--) {
                    if (conditions.get(i).path("type").asText().equals("Dangling")) {
                        conditions.remove(i);
                    }
                }
                conditions.add(wanted);
                return obj;
            });
            LOG.info("flowschema {}: Dangling={} (priority level {})", name, wanted.path("status").asText(), level);
        } catch (StatusException e) {
            // Deleted or changed meanwhile: its informer event queues another sync.
            LOG.debug("flowschema {}: cannot write its Dangling condition: {}", name, e.getMessage());
        }
    }

    static ObjectNode danglingCondition(String level, boolean found) {
        ObjectNode c = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        c.put("type", "Dangling");
        c.put("status", found ? "False" : "True");
        c.put("lastTransitionTime", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        c.put("reason", found ? "Found" : "NotFound");
        c.put("message", found
                ? "This FlowSchema references the PriorityLevelConfiguration object named \"" + level + "\" and it exists"
                : "This FlowSchema references the PriorityLevelConfiguration object named \"" + level
                        + "\" but there is no such object");
        return c;
    }

    private static JsonNode condition(JsonNode obj, String type) {
        for (JsonNode c : obj.path("status").path("conditions")) {
            if (c.path("type").asText().equals(type)) {
                return c;
            }
        }
        return null;
    }
}
