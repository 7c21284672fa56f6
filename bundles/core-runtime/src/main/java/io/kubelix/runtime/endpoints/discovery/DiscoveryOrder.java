package io.kubelix.runtime.endpoints.discovery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.kubelix.api.schema.VersionPriority;
import io.kubelix.api.server.DiscoverySource;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The order discovery lists groups and versions in, from the APIServices' priorities (kube's
 * helper.SortedByGroupAndVersion): groups by {@code groupPriorityMinimum}, highest first, each
 * placed by its highest-priority APIService, then by that APIService's name; versions by
 * {@code versionPriority}, highest first, then as kube orders versions. What has no priority keeps
 * its place after what has one, so without any priorities nothing moves.
 */
public final class DiscoveryOrder {
    /** No priorities: the order given. */
    public static final DiscoveryOrder NONE = new DiscoveryOrder(List.of());

    private static final Comparator<DiscoverySource.Priority> APISERVICES = Comparator
            .comparingInt(DiscoverySource.Priority::groupPriorityMinimum).reversed()
            .thenComparing(p -> p.version() + "." + p.group());

    /** Each group's first APIService in kube's sort. */
    private final Map<String, DiscoverySource.Priority> groups = new HashMap<>();
    private final Map<String, Integer> versions = new HashMap<>();

    public DiscoveryOrder(List<DiscoverySource.Priority> priorities) {
        for (DiscoverySource.Priority p : priorities) {
            groups.merge(p.group(), p, (a, b) -> APISERVICES.compare(a, b) <= 0 ? a : b);
            versions.put(p.version() + "." + p.group(), p.versionPriority());
        }
    }

    /** Sorts the group objects of a discovery list in place, each named by {@code name}. */
    void sortGroups(ArrayNode groupList, Function<JsonNode, String> name) {
        Comparator<JsonNode> byPriority = Comparator.comparing(g -> groups.get(name.apply(g)),
                Comparator.nullsLast(APISERVICES));
        sort(groupList, byPriority);
    }

    /** Sorts a group's version objects (each with a {@code version}) in place. */
    void sortVersions(String group, ArrayNode versionList) {
        sort(versionList, (a, b) -> {
            String va = a.path("version").asText();
            String vb = b.path("version").asText();
            Integer pa = versions.get(va + "." + group);
            Integer pb = versions.get(vb + "." + group);
            if (pa == null || pb == null) {
                return pa == null ? (pb == null ? 0 : 1) : -1;
            }
            return pa.equals(pb) ? VersionPriority.compare(va, vb) : Integer.compare(pb, pa);
        });
    }

    /** Orders from the same priorities are equal: a document built with one serves for the other. */
    @Override
    public boolean equals(Object o) {
        return o instanceof DiscoveryOrder other && groups.equals(other.groups) && versions.equals(other.versions);
    }

    @Override
    public int hashCode() {
        return groups.hashCode() * 31 + versions.hashCode();
    }

    /** A stable sort of a JSON array. */
    private static void sort(ArrayNode array, Comparator<JsonNode> order) {
        List<JsonNode> elements = new ArrayList<>();
        array.forEach(elements::add);
        elements.sort(order);
        array.removeAll();
        array.addAll(elements);
    }
}
