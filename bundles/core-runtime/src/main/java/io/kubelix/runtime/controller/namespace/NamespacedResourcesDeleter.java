package io.kubelix.runtime.controller.namespace;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.registry.CollectionDeleter;
import io.kubelix.api.registry.DeleteOptions;
import io.kubelix.api.registry.Getter;
import io.kubelix.api.registry.GracefulDeleter;
import io.kubelix.api.registry.Lister;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.UpdateOptions;
import io.kubelix.api.registry.Updater;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.api.storage.ListOptions;
import io.kubelix.runtime.controller.ServedResources;

import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * kube's {@code namespacedResourcesDeleter}: deletes the content of a namespace resource by
 * resource, counts what remains (and the finalizers holding it), and writes the namespace's
 * deletion conditions with kube's types, reasons and messages.
 */
final class NamespacedResourcesDeleter {
    static final GroupVersionResource NAMESPACES_STATUS = new GroupVersionResource("", "v1", "namespaces/status");
    static final GroupVersionResource NAMESPACES_FINALIZE = new GroupVersionResource("", "v1", "namespaces/finalize");
    /** kube's conditionTypes, in its order, with the reason and message of each when all is well. */
    private static final List<String[]> CONDITIONS = List.of(
            new String[] {"NamespaceDeletionDiscoveryFailure", "ResourcesDiscovered", "All resources successfully discovered"},
            new String[] {"NamespaceDeletionGroupVersionParsingFailure", "ParsedGroupVersions",
                "All legacy kube types successfully parsed"},
            new String[] {"NamespaceDeletionContentFailure", "ContentDeleted",
                "All content successfully deleted, may be waiting on finalization"},
            new String[] {"NamespaceContentRemaining", "ContentRemoved", "All content successfully removed"},
            new String[] {"NamespaceFinalizersRemaining", "ContentHasNoFinalizers", "All content-preserving finalizers finished"});

    /**
     * What one pass left.
     *
     * @param remaining  objects left per resource, as kube names them ({@code configmaps.}, {@code deployments.apps})
     * @param finalizers objects left per finalizer holding them
     * @param errors     the deletions that failed
     */
    record Result(Map<String, Integer> remaining, Map<String, Integer> finalizers, List<String> errors) {
        boolean done() {
            return remaining.isEmpty() && errors.isEmpty();
        }

        String describe() {
            List<String> parts = new ArrayList<>();
            remaining.forEach((r, n) -> parts.add(r + " has " + n + " resource instances"));
            finalizers.forEach((f, n) -> parts.add(f + " in " + n + " resource instances"));
            parts.addAll(errors);
            return "content remains: " + String.join(", ", parts);
        }
    }

    private final ServedResources served;
    private final Clock clock;

    NamespacedResourcesDeleter(ServedResources served, Clock clock) {
        this.served = served;
        this.clock = clock;
    }

    /** Whether the namespace controller can empty a resource: it lists, and deletes a collection or one by one. */
    static boolean deletable(RESTStorage s) {
        return s instanceof Lister && (s instanceof CollectionDeleter || s instanceof GracefulDeleter);
    }

    /** kube's deleteAllContent: every served namespaced resource, each storage once however many versions serve it. */
    Result deleteAllContent(String namespace) {
        RequestContext ctx = RequestContext.system(namespace);
        Map<String, Integer> remaining = new TreeMap<>();
        Map<String, Integer> finalizers = new TreeMap<>();
        List<String> errors = new ArrayList<>();
        Set<RESTStorage> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (GroupVersionResource r : served.resources()) {
            RESTStorage s = served.storage(r);
            if (s == null || !s.namespaced() || !deletable(s) || !seen.add(s)) {
                continue;
            }
            try {
                deleteCollection(s, ctx);
                List<ObjectNode> left =
                        ((Lister) s).list(ctx, ListOptions.recursiveAll()).items();
                if (!left.isEmpty()) {
                    remaining.put(r.resource() + "." + r.group(), left.size());
                    for (ObjectNode obj : left) {
                        for (JsonNode f : obj.path("metadata").path("finalizers")) {
                            finalizers.merge(f.asText(), 1, Integer::sum);
                        }
                    }
                }
            } catch (StatusException e) {
                errors.add(e.getMessage());
            }
        }
        return new Result(remaining, finalizers, errors);
    }

    private static void deleteCollection(RESTStorage s, RequestContext ctx) {
        if (s instanceof CollectionDeleter deleter) {
            deleter.deleteCollection(ctx, DeleteOptions.DEFAULT, ListOptions.recursiveAll());
            return;
        }
        for (ObjectNode obj : ((Lister) s).list(ctx, ListOptions.recursiveAll()).items()) {
            try {
                ((GracefulDeleter) s).delete(ctx, obj.path("metadata").path("name").asText(), DeleteOptions.DEFAULT);
            } catch (StatusException e) {
                if (e.code() != 404) {
                    throw e;
                }
            }
        }
    }

    /** The namespace as stored now, or null when there is none. */
    ObjectNode namespace(String name) {
        if (!(served.storage(NamespaceController.NAMESPACES) instanceof Getter getter)) {
            throw StatusException.serviceUnavailable("namespaces are not served");
        }
        try {
            return getter.get(RequestContext.system(""), name, "");
        } catch (StatusException e) {
            if (e.code() == 404) {
                return null;
            }
            throw e;
        }
    }

    /**
     * kube's namespaceConditionUpdater: sets the five deletion conditions of the namespace {@code uid};
     * writes only when one changed. Returns false when the name now belongs to another namespace.
     */
    boolean updateConditions(String namespace, String uid, Result result) {
        Map<String, String[]> failing = new java.util.HashMap<>();
        if (!result.errors().isEmpty()) {
            failing.put("NamespaceDeletionContentFailure", new String[] {"ContentDeletionFailed",
                "Failed to delete all resource types, " + result.errors().size() + " remaining: "
                        + aggregate(result.errors())});
        }
        if (!result.remaining().isEmpty()) {
            List<String> parts = new ArrayList<>();
            result.remaining().forEach((r, n) -> parts.add(r + " has " + n + " resource instances"));
            Collections.sort(parts);
            failing.put("NamespaceContentRemaining", new String[] {"SomeResourcesRemain",
                "Some resources are remaining: " + String.join(", ", parts)});
        }
        if (!result.finalizers().isEmpty()) {
            List<String> parts = new ArrayList<>();
            result.finalizers().forEach((f, n) -> parts.add(f + " in " + n + " resource instances"));
            Collections.sort(parts);
            failing.put("NamespaceFinalizersRemaining", new String[] {"SomeFinalizersRemain",
                "Some content in the namespace has finalizers remaining: " + String.join(", ", parts)});
        }
        String now = clock.instant().truncatedTo(ChronoUnit.SECONDS).toString();
        boolean[] replaced = {false};
        updater(NAMESPACES_STATUS).update(RequestContext.system(""), namespace, (ctx, current) -> {
            if (!uid.equals(current.path("metadata").path("uid").asText())) {
                replaced[0] = true;
                return current;
            }
            ObjectNode next = current.deepCopy();
            ObjectNode status = next.get("status") instanceof ObjectNode s ? s : next.putObject("status");
            ArrayNode conditions = status.get("conditions") instanceof ArrayNode a ? a : status.putArray("conditions");
            for (String[] type : CONDITIONS) {
                String[] bad = failing.get(type[0]);
                String wantStatus = bad == null ? "False" : "True";
                String reason = bad == null ? type[1] : bad[0];
                String message = bad == null ? type[2] : bad[1];
                ObjectNode c = find(conditions, type[0]);
                if (c == null) {
                    c = conditions.addObject();
                    c.put("type", type[0]);
                } else if (wantStatus.equals(c.path("status").asText()) && reason.equals(c.path("reason").asText())
                        && message.equals(c.path("message").asText())) {
                    continue;
                }
                c.put("status", wantStatus).put("lastTransitionTime", now).put("reason", reason).put("message", message);
            }
            return next;
        }, UpdateOptions.DEFAULT);
        return !replaced[0];
    }

    /** Where the finalizer is taken out. */
    Updater finalizer() {
        return updater(NAMESPACES_FINALIZE);
    }

    private Updater updater(GroupVersionResource r) {
        if (!(served.storage(r) instanceof Updater u)) {
            throw StatusException.serviceUnavailable(r.resource() + " is not served");
        }
        return u;
    }

    private static ObjectNode find(ArrayNode conditions, String type) {
        for (JsonNode c : conditions) {
            if (c instanceof ObjectNode o && type.equals(o.path("type").asText())) {
                return o;
            }
        }
        return null;
    }

    /** Go's utilerrors.NewAggregate text: one error as it is, several in brackets. */
    private static String aggregate(List<String> errors) {
        return errors.size() == 1 ? errors.get(0) : "[" + String.join(", ", errors) + "]";
    }
}
