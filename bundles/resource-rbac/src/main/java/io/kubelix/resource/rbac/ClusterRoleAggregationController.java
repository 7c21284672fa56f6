package io.kubelix.resource.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.informer.RateLimitingQueue;
import io.kubelix.api.informer.ResourceEventHandler;
import io.kubelix.api.informer.ResourceEventHandlerRegistration;
import io.kubelix.api.informer.SharedIndexInformer;
import io.kubelix.api.informer.SharedInformerFactory;
import io.kubelix.api.informer.Workers;
import io.kubelix.api.object.LabelSelectors;
import io.kubelix.api.registry.Updater;
import io.kubelix.api.registry.UpdateOptions;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupVersionResource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * kube's ClusterRole aggregation controller: a cluster role with an {@code aggregationRule} gets
 * as its rules the union of the rules of every other cluster role its selectors pick, in name
 * order, kept current as cluster roles come, change and go (so {@code admin}, {@code edit} and
 * {@code view} pick up a user's role labelled {@code rbac.authorization.k8s.io/aggregate-to-view}).
 * Any change to a cluster role queues every aggregated one; one worker recomputes them, retrying
 * with back-off when a write fails.
 */
final class ClusterRoleAggregationController {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterRoleAggregationController.class);
    static final GroupVersionResource CLUSTER_ROLES = new GroupVersionResource(RbacValidation.GROUP, "v1",
            "clusterroles");

    private final SharedIndexInformer informer;
    private final Updater clusterRoles;
    private final RateLimitingQueue<String> queue;
    private final ResourceEventHandlerRegistration registration;
    private final Workers workers;

    ClusterRoleAggregationController(SharedInformerFactory informers, Updater clusterRoles) {
        this.informer = informers.forResource(CLUSTER_ROLES);
        this.clusterRoles = clusterRoles;
        this.queue = informers.newRateLimitingQueue("clusterrole-aggregation");
        this.registration = informer.addEventHandler(new ResourceEventHandler() {
            @Override
            public void onAdd(ObjectNode obj, boolean isInInitialList) {
                enqueueAggregated();
            }

            @Override
            public void onUpdate(ObjectNode oldObj, ObjectNode newObj) {
                enqueueAggregated();
            }

            @Override
            public void onDelete(ObjectNode obj) {
                enqueueAggregated();
            }
        });
        this.workers = informers.runWorkers("clusterrole-aggregation", queue, 1, this::sync);
    }

    /** Stops the worker once it has recomputed the roles still queued. */
    void stop() {
        registration.close();
        workers.stop();
    }

    private void enqueueAggregated() {
        for (ObjectNode role : informer.lister().list()) {
            if (role.path("aggregationRule").isObject()) {
                queue.add(role.path("metadata").path("name").asText());
            }
        }
    }

    private void sync(String name) {
        ObjectNode role = informer.lister().get(name).orElse(null);
        if (role == null || !role.path("aggregationRule").isObject()) {
            return;
        }
        ArrayNode rules = aggregate(role, informer.lister().list());
        if (rules.equals(role.path("rules"))) {
            return;
        }
        try {
            clusterRoles.update(RequestContext.system(""), name, (ctx, current) -> {
                if (current == null) {
                    throw StatusException.notFound(RbacRESTStorageProvider.CLUSTERROLES, name);
                }
                ObjectNode updated = current.deepCopy();
                updated.set("rules", rules);
                return updated;
            }, new UpdateOptions(false, "clusterrole-aggregation-controller"));
            LOG.info("cluster role \"{}\" aggregated: {} rule(s)", name, rules.size());
        } catch (StatusException e) {
            if (e.code() != 404) {
                throw e;
            }
        }
    }

    /** The union of the rules of the other cluster roles the selectors pick, in name order, without repeats. */
    static ArrayNode aggregate(ObjectNode role, List<ObjectNode> all) {
        String self = role.path("metadata").path("name").asText();
        List<ObjectNode> sorted = new ArrayList<>(all);
        sorted.sort(Comparator.comparing(r -> r.path("metadata").path("name").asText()));
        ArrayNode rules = JsonNodeFactory.instance.arrayNode();
        for (JsonNode selector : role.path("aggregationRule").path("clusterRoleSelectors")) {
            for (ObjectNode other : sorted) {
                if (other.path("metadata").path("name").asText().equals(self)
                        || !LabelSelectors.matches(selector, other.path("metadata").path("labels"))) {
                    continue;
                }
                for (JsonNode rule : other.path("rules")) {
                    if (!contains(rules, rule)) {
                        rules.add(rule.deepCopy());
                    }
                }
            }
        }
        return rules;
    }

    private static boolean contains(ArrayNode rules, JsonNode rule) {
        for (JsonNode r : rules) {
            if (r.equals(rule)) {
                return true;
            }
        }
        return false;
    }
}
