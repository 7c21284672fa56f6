package io.kubelix.runtime.endpoints;

import io.kubelix.api.registry.APIGroupInfo;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.schema.GroupVersion;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An immutable snapshot of what the core API serves: group → versions (preferred first) →
 * resource path ({@code configmaps}, {@code namespaces/status}) → storage. Built from the
 * installed providers and swapped atomically when one comes or goes.
 */
final class RouteTable {
    static final RouteTable EMPTY = new RouteTable(Map.of(), Map.of());

    /** One API group as served: its versions, preferred first, each with its resources in name order. */
    record Group(String name, List<String> versions, Map<String, Map<String, RESTStorage>> resources) {
    }

    private final Map<String, Group> groups;
    /** The requests in flight on each served storage's provider, by identity. */
    private final Map<RESTStorage, InFlight> inFlight;

    private RouteTable(Map<String, Group> groups, Map<RESTStorage, InFlight> inFlight) {
        this.groups = groups;
        this.inFlight = inFlight;
    }

    /**
     * Builds a table from the winning group infos, in the order given (highest ranking first per
     * group), with the in-flight counter of each storage's provider.
     */
    static RouteTable of(List<APIGroupInfo> infos, Map<RESTStorage, InFlight> inFlight) {
        Map<String, Map<String, Map<String, RESTStorage>>> byGroup = new LinkedHashMap<>();
        Map<String, List<String>> versions = new LinkedHashMap<>();
        for (APIGroupInfo info : infos) {
            Map<String, Map<String, RESTStorage>> g = byGroup.computeIfAbsent(info.groupName(), k -> new LinkedHashMap<>());
            List<String> vs = versions.computeIfAbsent(info.groupName(), k -> new java.util.ArrayList<>());
            for (String v : info.prioritizedVersions()) {
                Map<String, RESTStorage> resources = info.versionedResourcesStorageMap().get(v);
                if (resources == null || resources.isEmpty()) {
                    continue;
                }
                if (!vs.contains(v)) {
                    vs.add(v);
                }
                Map<String, RESTStorage> target = g.computeIfAbsent(v, k -> new TreeMap<>());
                resources.forEach(target::putIfAbsent);
            }
        }
        Map<String, Group> groups = new LinkedHashMap<>();
        byGroup.forEach((name, vmap) -> {
            if (!vmap.isEmpty()) {
                Map<String, Map<String, RESTStorage>> frozen = new LinkedHashMap<>();
                for (String v : versions.get(name)) {
                    frozen.put(v, Collections.unmodifiableMap(vmap.get(v)));
                }
                groups.put(name, new Group(name, List.copyOf(versions.get(name)), Collections.unmodifiableMap(frozen)));
            }
        });
        return new RouteTable(Collections.unmodifiableMap(groups), new IdentityHashMap<>(inFlight));
    }

    /** The in-flight counter of the provider serving {@code storage}, or null when none is kept. */
    InFlight inFlight(RESTStorage storage) {
        return inFlight.get(storage);
    }

    /** The storage of a resource path at a group version, or null. */
    RESTStorage lookup(GroupVersion gv, String resourcePath) {
        Map<String, RESTStorage> resources = resources(gv);
        return resources == null ? null : resources.get(resourcePath);
    }

    /** The resources of a group version, or null when it is not served. */
    Map<String, RESTStorage> resources(GroupVersion gv) {
        Group g = groups.get(gv.group());
        return g == null ? null : g.resources().get(gv.version());
    }

    Group group(String name) {
        return groups.get(name);
    }

    /** Every group served, core group (if any) first. */
    List<Group> groups() {
        return List.copyOf(groups.values());
    }
}
