package io.kubelix.runtime.controller.garbagecollector;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.api.schema.GroupVersionResource;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * kube's GraphBuilder's {@code uidToNode}: every object of every followed resource by uid, and for
 * each owner uid the uids of the objects that reference it (an owner that is not, or no longer,
 * there is only a key of the edges: kube's virtual node). Kept up to date by informer events; safe
 * for concurrent use.
 */
final class Graph {

    /** One object as last seen: where it is served, and its metadata. */
    record Node(GroupVersionResource resource, String group, String kind, String namespace, String name,
                JsonNode metadata) {
        String uid() {
            return metadata.path("uid").asText();
        }

        long resourceVersion() {
            String rv = metadata.path("resourceVersion").asText("");
            try {
                return rv.isEmpty() ? 0 : Long.parseLong(rv);
            } catch (NumberFormatException e) {
                return 0;
            }
        }

        JsonNode ownerReferences() {
            return metadata.path("ownerReferences");
        }

        boolean deleting() {
            JsonNode ts = metadata.get("deletionTimestamp");
            return ts != null && !ts.isNull();
        }

        boolean hasFinalizer(String finalizer) {
            for (JsonNode f : metadata.path("finalizers")) {
                if (finalizer.equals(f.asText())) {
                    return true;
                }
            }
            return false;
        }

        List<String> ownerUids() {
            List<String> uids = new ArrayList<>();
            ownerReferences().forEach(ref -> uids.add(ref.path("uid").asText()));
            return uids;
        }

        @Override
        public String toString() {
            return resource.resource() + (group.isEmpty() ? "" : "." + group) + " "
                    + (namespace.isEmpty() ? name : namespace + "/" + name);
        }
    }

    private final Map<String, Node> nodes = new HashMap<>();
    private final Map<String, Set<String>> dependents = new HashMap<>();

    /** Records {@code node}; returns what was recorded for its uid before, or null. */
    synchronized Node put(Node node) {
        Node old = nodes.put(node.uid(), node);
        if (old != null) {
            unlink(old);
        }
        for (String owner : node.ownerUids()) {
            dependents.computeIfAbsent(owner, k -> new HashSet<>()).add(node.uid());
        }
        return old;
    }

    /** Forgets the object with {@code uid}; returns it, or null. */
    synchronized Node remove(String uid) {
        Node old = nodes.remove(uid);
        if (old != null) {
            unlink(old);
        }
        return old;
    }

    /** Forgets every object of a resource no longer followed. */
    synchronized void removeResource(GroupVersionResource resource) {
        List.copyOf(nodes.values()).stream().filter(n -> n.resource().equals(resource)).forEach(n -> remove(n.uid()));
    }

    synchronized Node get(String uid) {
        return nodes.get(uid);
    }

    /** The objects referencing {@code ownerUid} as an owner. */
    synchronized List<Node> dependents(String ownerUid) {
        List<Node> found = new ArrayList<>();
        for (String uid : dependents.getOrDefault(ownerUid, Set.of())) {
            Node n = nodes.get(uid);
            if (n != null) {
                found.add(n);
            }
        }
        return found;
    }

    synchronized int size() {
        return nodes.size();
    }

    private void unlink(Node node) {
        for (String owner : node.ownerUids()) {
            Set<String> set = dependents.get(owner);
            if (set != null && set.remove(node.uid()) && set.isEmpty()) {
                dependents.remove(owner);
            }
        }
    }
}
