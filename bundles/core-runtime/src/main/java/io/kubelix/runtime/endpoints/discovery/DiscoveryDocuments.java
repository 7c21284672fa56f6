package io.kubelix.runtime.endpoints.discovery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.registry.CollectionDeleter;
import io.kubelix.api.registry.Creater;
import io.kubelix.api.registry.Getter;
import io.kubelix.api.registry.GroupVersionKindProvider;
import io.kubelix.api.registry.GracefulDeleter;
import io.kubelix.api.registry.Lister;
import io.kubelix.api.registry.NamedCreater;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.Updater;
import io.kubelix.api.registry.Watcher;
import io.kubelix.api.schema.GroupVersion;
import io.kubelix.api.server.DiscoverySource;
import io.kubelix.api.schema.GroupVersionKind;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The discovery documents: APIVersions ({@code /api}), APIGroupList ({@code /apis}), APIGroup
 * ({@code /apis/<group>}), APIResourceList ({@code /api/v1}, {@code /apis/<group>/<version>}),
 * and the aggregated APIGroupDiscoveryList (apidiscovery.k8s.io v2 and v2beta1) that kubectl
 * asks for first.
 */
public final class DiscoveryDocuments {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    /** A group as discovery sees it: its name and versions (preferred first) with their resources. */
    public record GroupEntry(String name, List<String> versions, Map<String, Map<String, RESTStorage>> resources) {
    }

    private DiscoveryDocuments() {
    }

    /** The verbs a storage supports, as discovery lists them. */
    public static List<String> verbs(RESTStorage s) {
        List<String> verbs = new ArrayList<>();
        if (s instanceof Creater || s instanceof NamedCreater) {
            verbs.add("create");
        }
        if (s instanceof GracefulDeleter) {
            verbs.add("delete");
        }
        if (s instanceof CollectionDeleter) {
            verbs.add("deletecollection");
        }
        if (s instanceof Getter) {
            verbs.add("get");
        }
        if (s instanceof Lister) {
            verbs.add("list");
        }
        if (s instanceof Updater) {
            // A patch reads the current object: rest.Patcher is Getter and Updater.
            if (s instanceof Getter) {
                verbs.add("patch");
            }
            verbs.add("update");
        }
        if (s instanceof Watcher) {
            verbs.add("watch");
        }
        return verbs;
    }

    public static ObjectNode apiVersions(List<String> versions, String serverAddress) {
        ObjectNode d = F.objectNode();
        d.put("kind", "APIVersions");
        ArrayNode vs = d.putArray("versions");
        versions.forEach(vs::add);
        ArrayNode addrs = d.putArray("serverAddressByClientCIDRs");
        ObjectNode a = addrs.addObject();
        a.put("clientCIDR", "0.0.0.0/0");
        a.put("serverAddress", serverAddress);
        return d;
    }

    public static ObjectNode apiGroupList(List<GroupEntry> groups) {
        return apiGroupList(groups, List.of());
    }

    public static ObjectNode apiGroupList(List<GroupEntry> groups, List<DiscoverySource.Group> remote) {
        return apiGroupList(groups, remote, DiscoveryOrder.NONE);
    }

    /**
     * The APIGroupList of the core API's groups and those other links serve ({@code remote}), in
     * {@code order}; a remote version that is stale is left out, and a group left without versions too.
     */
    public static ObjectNode apiGroupList(List<GroupEntry> groups, List<DiscoverySource.Group> remote,
                                          DiscoveryOrder order) {
        ObjectNode d = F.objectNode();
        d.put("kind", "APIGroupList");
        d.put("apiVersion", "v1");
        ArrayNode arr = d.putArray("groups");
        for (GroupEntry g : groups) {
            arr.add(groupBody(g));
        }
        for (DiscoverySource.Group g : remote) {
            List<String> versions = g.versions().stream().filter(v -> !v.stale())
                    .map(DiscoverySource.Version::version).toList();
            if (!versions.isEmpty() && groups.stream().noneMatch(local -> local.name().equals(g.name()))) {
                arr.add(groupBody(new GroupEntry(g.name(), versions, Map.of())));
            }
        }
        order.sortGroups(arr, g -> g.path("name").asText());
        for (JsonNode g : arr) {
            sortVersions(order, (ObjectNode) g);
        }
        return d;
    }

    public static ObjectNode apiGroup(GroupEntry g, DiscoveryOrder order) {
        ObjectNode d = apiGroup(g);
        sortVersions(order, d);
        return d;
    }

    /** Sorts an APIGroup's versions; the preferred version is the first. */
    private static void sortVersions(DiscoveryOrder order, ObjectNode group) {
        ArrayNode versions = (ArrayNode) group.get("versions");
        order.sortVersions(group.path("name").asText(), versions);
        group.set("preferredVersion", versions.get(0).deepCopy());
    }

    public static ObjectNode apiGroup(GroupEntry g) {
        ObjectNode d = groupBody(g);
        ObjectNode out = F.objectNode();
        out.put("kind", "APIGroup");
        out.put("apiVersion", "v1");
        out.setAll(d);
        return out;
    }

    private static ObjectNode groupBody(GroupEntry g) {
        ObjectNode d = F.objectNode();
        d.put("name", g.name());
        ArrayNode vs = d.putArray("versions");
        for (String v : g.versions()) {
            vs.add(groupVersionForDiscovery(g.name(), v));
        }
        d.set("preferredVersion", groupVersionForDiscovery(g.name(), g.versions().get(0)));
        return d;
    }

    private static ObjectNode groupVersionForDiscovery(String group, String version) {
        ObjectNode o = F.objectNode();
        o.put("groupVersion", new GroupVersion(group, version).apiVersion());
        o.put("version", version);
        return o;
    }

    public static ObjectNode apiResourceList(GroupVersion gv, Map<String, RESTStorage> resources) {
        ObjectNode d = F.objectNode();
        d.put("kind", "APIResourceList");
        d.put("apiVersion", "v1");
        d.put("groupVersion", gv.apiVersion());
        ArrayNode arr = d.putArray("resources");
        resources.forEach((path, s) -> {
            ObjectNode r = arr.addObject();
            boolean sub = path.contains("/");
            r.put("name", path);
            r.put("singularName", sub ? "" : s.singularName());
            r.put("namespaced", s.namespaced());
            if (s instanceof GroupVersionKindProvider p) {
                // Only a kind from another group version is named, as kube's discovery does (deployments/scale).
                GroupVersionKind k = p.groupVersionKind(gv);
                r.put("group", k.group());
                r.put("version", k.version());
            }
            r.put("kind", kindOf(gv, s).kind());
            ArrayNode verbs = r.putArray("verbs");
            verbs(s).forEach(verbs::add);
            if (!sub && !s.shortNames().isEmpty()) {
                ArrayNode sn = r.putArray("shortNames");
                s.shortNames().forEach(sn::add);
            }
            if (!sub && !s.categories().isEmpty()) {
                ArrayNode c = r.putArray("categories");
                s.categories().forEach(c::add);
            }
        });
        return d;
    }

    /** The aggregated discovery document of {@code groups}, for {@code apidiscovery.k8s.io/<version>}. */
    public static ObjectNode aggregated(List<GroupEntry> groups, String discoveryVersion) {
        return aggregated(groups, List.of(), discoveryVersion);
    }

    public static ObjectNode aggregated(List<GroupEntry> groups, List<DiscoverySource.Group> remote,
                                        String discoveryVersion) {
        return aggregated(groups, remote, DiscoveryOrder.NONE, discoveryVersion);
    }

    /**
     * The aggregated discovery document of the core API's groups and those other links serve
     * ({@code remote}), in {@code order}, each remote version's resources converted from its
     * APIResourceList; a stale version keeps its last resources and says {@code freshness: Stale},
     * as kube's aggregator marks a group version it could not refresh.
     */
    public static ObjectNode aggregated(List<GroupEntry> groups, List<DiscoverySource.Group> remote,
                                        DiscoveryOrder order, String discoveryVersion) {
        ObjectNode d = aggregatedLocal(groups, discoveryVersion);
        ArrayNode items = (ArrayNode) d.get("items");
        for (DiscoverySource.Group g : remote) {
            if (g.versions().isEmpty() || groups.stream().anyMatch(local -> local.name().equals(g.name()))) {
                continue;
            }
            ObjectNode item = items.addObject();
            ObjectNode meta = item.putObject("metadata");
            meta.put("name", g.name());
            meta.putNull("creationTimestamp");
            ArrayNode versions = item.putArray("versions");
            for (DiscoverySource.Version v : g.versions()) {
                ObjectNode ver = versions.addObject();
                ver.put("version", v.version());
                ver.set("resources", aggregatedResources(g.name(), v.version(), v.resourceList()));
                ver.put("freshness", v.stale() ? "Stale" : "Current");
            }
        }
        order.sortGroups(items, item -> item.path("metadata").path("name").asText());
        for (JsonNode item : items) {
            order.sortVersions(item.path("metadata").path("name").asText(), (ArrayNode) item.get("versions"));
        }
        return d;
    }

    /** An APIResourceList's resources as APIResourceDiscovery entries, subresources folded into their resource. */
    static ArrayNode aggregatedResources(String group, String version, ObjectNode resourceList) {
        ArrayNode out = F.arrayNode();
        Map<String, ObjectNode> byName = new java.util.LinkedHashMap<>();
        JsonNode list = resourceList == null ? F.arrayNode() : resourceList.path("resources");
        for (JsonNode r : list) {
            String name = r.path("name").asText("");
            if (name.isEmpty() || name.contains("/")) {
                continue;
            }
            ObjectNode a = out.addObject();
            a.put("resource", name);
            a.set("responseKind", kind(r.path("group").asText(group), r.path("version").asText(version),
                    r.path("kind").asText("")));
            a.put("scope", r.path("namespaced").asBoolean(false) ? "Namespaced" : "Cluster");
            a.put("singularResource", r.path("singularName").asText(""));
            a.set("verbs", r.path("verbs").isArray() ? r.get("verbs").deepCopy() : F.arrayNode());
            for (String field : new String[] {"shortNames", "categories"}) {
                if (r.path(field).isArray() && !r.get(field).isEmpty()) {
                    a.set(field, r.get(field).deepCopy());
                }
            }
            byName.put(name, a);
        }
        for (JsonNode r : list) {
            String name = r.path("name").asText("");
            int slash = name.indexOf('/');
            ObjectNode parent = slash > 0 ? byName.get(name.substring(0, slash)) : null;
            if (parent == null) {
                continue;
            }
            ObjectNode sub = parent.withArray("subresources").addObject();
            sub.put("subresource", name.substring(slash + 1));
            sub.set("responseKind", kind(r.path("group").asText(group), r.path("version").asText(version),
                    r.path("kind").asText("")));
            sub.set("verbs", r.path("verbs").isArray() ? r.get("verbs").deepCopy() : F.arrayNode());
        }
        return out;
    }

    private static ObjectNode aggregatedLocal(List<GroupEntry> groups, String discoveryVersion) {
        ObjectNode d = F.objectNode();
        d.put("kind", "APIGroupDiscoveryList");
        d.put("apiVersion", "apidiscovery.k8s.io/" + discoveryVersion);
        d.putObject("metadata");
        ArrayNode items = d.putArray("items");
        for (GroupEntry g : groups) {
            ObjectNode item = items.addObject();
            ObjectNode meta = item.putObject("metadata");
            meta.put("name", g.name());
            meta.putNull("creationTimestamp");
            ArrayNode versions = item.putArray("versions");
            for (String v : g.versions()) {
                ObjectNode ver = versions.addObject();
                ver.put("version", v);
                ArrayNode rs = ver.putArray("resources");
                Map<String, RESTStorage> resources = g.resources().get(v);
                resources.forEach((path, s) -> {
                    if (!path.contains("/")) {
                        rs.add(aggregatedResource(g.name(), v, path, s, resources));
                    }
                });
                ver.put("freshness", "Current");
            }
        }
        return d;
    }

    private static ObjectNode aggregatedResource(String group, String version, String name, RESTStorage s,
                                                 Map<String, RESTStorage> all) {
        ObjectNode r = F.objectNode();
        r.put("resource", name);
        r.set("responseKind", kind(group, version, s.kind()));
        r.put("scope", s.namespaced() ? "Namespaced" : "Cluster");
        r.put("singularResource", s.singularName());
        ArrayNode verbs = r.putArray("verbs");
        verbs(s).forEach(verbs::add);
        if (!s.shortNames().isEmpty()) {
            ArrayNode sn = r.putArray("shortNames");
            s.shortNames().forEach(sn::add);
        }
        if (!s.categories().isEmpty()) {
            ArrayNode c = r.putArray("categories");
            s.categories().forEach(c::add);
        }
        ArrayNode subs = F.arrayNode();
        all.forEach((path, sub) -> {
            if (path.startsWith(name + "/")) {
                ObjectNode so = subs.addObject();
                so.put("subresource", path.substring(name.length() + 1));
                GroupVersionKind k = kindOf(new GroupVersion(group, version), sub);
                so.set("responseKind", kind(k.group(), k.version(), k.kind()));
                ArrayNode sv = so.putArray("verbs");
                verbs(sub).forEach(sv::add);
            }
        });
        if (!subs.isEmpty()) {
            r.set("subresources", subs);
        }
        return r;
    }

    private static GroupVersionKind kindOf(GroupVersion gv, RESTStorage s) {
        return s instanceof GroupVersionKindProvider p ? p.groupVersionKind(gv) : GroupVersionKind.of(gv, s.kind());
    }

    private static ObjectNode kind(String group, String version, String kind) {
        ObjectNode k = F.objectNode();
        k.put("group", group);
        k.put("version", version);
        k.put("kind", kind);
        return k;
    }
}
