package io.kubelix.runtime.flowcontrol;

import io.kubelix.api.request.RequestInfo;

import java.util.HashMap;
import java.util.Map;

/**
 * kube's watchTracker: counts the open watches by group, resource, namespace and name, so the work
 * estimator knows how many watchers a write's event will reach. A pods watch that selects one
 * node ({@code spec.nodeName}), as every kubelet's does, is not counted, as kube's built-in index
 * leaves it out: few writes concern it.
 */
public final class WatchTracker {
    private record Key(String group, String resource, String namespace, String name) {
    }

    /** Guarded by this. */
    private final Map<Key, Integer> counts = new HashMap<>();

    /** Counts an open watch; returns what forgets it once it ends (again is a no-op). */
    public Runnable register(RequestInfo info, String fieldSelector) {
        if (!info.verb().equals("watch") || indexedByNode(info, fieldSelector)) {
            return () -> { };
        }
        Key key = new Key(info.apiGroup(), info.resource(), info.namespace(), info.name());
        synchronized (this) {
            counts.merge(key, 1, Integer::sum);
        }
        boolean[] forgotten = {false};
        return () -> {
            synchronized (this) {
                if (!forgotten[0]) {
                    forgotten[0] = true;
                    counts.computeIfPresent(key, (k, n) -> n == 1 ? null : n - 1);
                }
            }
        };
    }

    /**
     * kube's GetInterestedWatchCount: the watches of the whole resource, of its namespace and of
     * the object a write names; none for a read.
     */
    public synchronized int interestedWatchCount(RequestInfo info) {
        if (!WorkEstimator.MUTATING_VERBS.contains(info.verb())) {
            return 0;
        }
        int n = counts.getOrDefault(new Key(info.apiGroup(), info.resource(), "", ""), 0);
        String namespace = "";
        if (!info.namespace().isEmpty()) {
            namespace = info.namespace();
            n += counts.getOrDefault(new Key(info.apiGroup(), info.resource(), namespace, ""), 0);
        }
        if (!info.name().isEmpty()) {
            n += counts.getOrDefault(new Key(info.apiGroup(), info.resource(), namespace, info.name()), 0);
        }
        return n;
    }

    private static boolean indexedByNode(RequestInfo info, String fieldSelector) {
        if (!info.resource().equals("pods") || !info.apiGroup().isEmpty() || fieldSelector == null) {
            return false;
        }
        for (String term : fieldSelector.split(",")) {
            String t = term.trim();
            if (t.startsWith("spec.nodeName=") && !t.startsWith("spec.nodeName==")) {
                return !t.substring("spec.nodeName=".length()).isEmpty();
            }
            if (t.startsWith("spec.nodeName==")) {
                return !t.substring("spec.nodeName==".length()).isEmpty();
            }
        }
        return false;
    }
}
