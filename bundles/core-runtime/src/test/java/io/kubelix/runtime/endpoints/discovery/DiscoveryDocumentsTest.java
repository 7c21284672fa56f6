package io.kubelix.runtime.endpoints.discovery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.registry.CollectionDeleter;
import io.kubelix.api.registry.Creater;
import io.kubelix.api.registry.Getter;
import io.kubelix.api.registry.GracefulDeleter;
import io.kubelix.api.registry.Lister;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.StandardStorage;
import io.kubelix.api.registry.Updater;
import io.kubelix.api.registry.Watcher;
import io.kubelix.api.schema.GroupVersion;
import io.kubelix.api.server.DiscoverySource;
import io.kubelix.runtime.endpoints.discovery.DiscoveryDocuments.GroupEntry;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The shapes kube-apiserver serves (discovery_test.go, aggregated/handler_test.go). */
class DiscoveryDocumentsTest {
    private static final List<String> ALL_VERBS =
            List.of("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch");

    private static final RESTStorage CONFIGMAPS = storage("ConfigMap", "configmap", true, List.of("cm"), List.of(),
            StandardStorage.class);
    private static final RESTStorage NAMESPACES = storage("Namespace", "namespace", false, List.of("ns"), List.of(),
            Creater.class, GracefulDeleter.class, Getter.class, Lister.class, Updater.class, Watcher.class);
    private static final RESTStorage NAMESPACE_STATUS = storage("Namespace", "", false, List.of(), List.of(),
            Getter.class, Updater.class);
    private static final RESTStorage NAMESPACE_FINALIZE = storage("Namespace", "", false, List.of(), List.of(),
            Updater.class);
    private static final RESTStorage DEPLOYMENTS = storage("Deployment", "deployment", true, List.of("deploy"),
            List.of("all"), StandardStorage.class);
    private static final RESTStorage SCALE = storage("Scale", "", true, List.of(), List.of(), Getter.class,
            Updater.class);

    @Test
    void verbsFollowTheImplementedInterfacesInKubesSortedOrder() {
        assertEquals(ALL_VERBS, DiscoveryDocuments.verbs(CONFIGMAPS));
        assertEquals(List.of("get", "patch", "update"), DiscoveryDocuments.verbs(NAMESPACE_STATUS));
        // rest.Patcher is Getter and Updater: kube lists namespaces/finalize with "update" only.
        assertEquals(List.of("update"), DiscoveryDocuments.verbs(NAMESPACE_FINALIZE));
        assertEquals(List.of("get", "list", "watch"),
                DiscoveryDocuments.verbs(storage("Event", "event", true, List.of(), List.of(), Getter.class,
                        Lister.class, Watcher.class)));
        assertEquals(List.of("create"), DiscoveryDocuments.verbs(storage("TokenReview", "tokenreview", false,
                List.of(), List.of(), Creater.class)));
        assertEquals(List.of("delete", "deletecollection"), DiscoveryDocuments.verbs(storage("X", "x", true,
                List.of(), List.of(), GracefulDeleter.class, CollectionDeleter.class)));
        assertEquals(List.of(), DiscoveryDocuments.verbs(storage("X", "x", true, List.of(), List.of())));
    }

    @Test
    void apiResourceList() {
        ObjectNode d = DiscoveryDocuments.apiResourceList(new GroupVersion("", "v1"), core());

        assertEquals("APIResourceList", d.path("kind").asText());
        assertEquals("v1", d.path("apiVersion").asText());
        assertEquals("v1", d.path("groupVersion").asText());
        JsonNode resources = d.path("resources");
        assertEquals(List.of("configmaps", "namespaces", "namespaces/finalize", "namespaces/status"),
                names(resources, "name"));

        JsonNode cm = resources.get(0);
        assertEquals("configmap", cm.path("singularName").asText());
        assertTrue(cm.path("namespaced").asBoolean());
        assertEquals("ConfigMap", cm.path("kind").asText());
        assertEquals(ALL_VERBS, texts(cm.path("verbs")));
        assertEquals(List.of("cm"), texts(cm.path("shortNames")));
        assertFalse(cm.has("categories"), "no categories, no field");

        JsonNode ns = resources.get(1);
        assertFalse(ns.path("namespaced").asBoolean());
        assertEquals(List.of("create", "delete", "get", "list", "patch", "update", "watch"), texts(ns.path("verbs")));

        JsonNode status = resources.get(3);
        assertEquals("namespaces/status", status.path("name").asText());
        assertEquals("", status.path("singularName").asText(), "subresources have no singular name");
        assertFalse(status.path("namespaced").asBoolean());
        assertEquals("Namespace", status.path("kind").asText());
        assertEquals(List.of("get", "patch", "update"), texts(status.path("verbs")));
        assertFalse(status.has("shortNames"));
    }

    @Test
    void apiResourceListOfAGroup() {
        ObjectNode d = DiscoveryDocuments.apiResourceList(new GroupVersion("apps", "v1"), apps());

        assertEquals("apps/v1", d.path("groupVersion").asText());
        JsonNode deploy = d.path("resources").get(0);
        assertEquals(List.of("deploy"), texts(deploy.path("shortNames")));
        assertEquals(List.of("all"), texts(deploy.path("categories")));
        JsonNode scale = d.path("resources").get(1);
        assertEquals("deployments/scale", scale.path("name").asText());
        assertEquals("Scale", scale.path("kind").asText());
        assertTrue(scale.path("namespaced").asBoolean());
    }

    @Test
    void apiGroupListAndApiGroup() {
        GroupEntry batch = new GroupEntry("batch", List.of("v1", "v1beta1"),
                Map.of("v1", Map.of(), "v1beta1", Map.of()));

        ObjectNode list = DiscoveryDocuments.apiGroupList(List.of(new GroupEntry("apps", List.of("v1"),
                Map.of("v1", apps())), batch));
        ObjectNode group = DiscoveryDocuments.apiGroup(batch);

        assertEquals("APIGroupList", list.path("kind").asText());
        assertEquals("v1", list.path("apiVersion").asText());
        assertEquals(List.of("apps", "batch"), names(list.path("groups"), "name"));
        JsonNode b = list.path("groups").get(1);
        assertEquals(List.of("batch/v1", "batch/v1beta1"), names(b.path("versions"), "groupVersion"));
        assertEquals(List.of("v1", "v1beta1"), names(b.path("versions"), "version"));
        assertEquals("batch/v1", b.path("preferredVersion").path("groupVersion").asText());
        assertEquals("v1", b.path("preferredVersion").path("version").asText());
        assertEquals("APIGroup", group.path("kind").asText());
        assertEquals("v1", group.path("apiVersion").asText());
        assertEquals("batch", group.path("name").asText());
        assertEquals("batch/v1", group.path("preferredVersion").path("groupVersion").asText());
    }

    @Test
    void apiVersions() {
        ObjectNode d = DiscoveryDocuments.apiVersions(List.of("v1"), "10.0.0.1:6443");

        assertEquals("APIVersions", d.path("kind").asText());
        assertEquals(List.of("v1"), texts(d.path("versions")));
        assertEquals("0.0.0.0/0", d.path("serverAddressByClientCIDRs").get(0).path("clientCIDR").asText());
        assertEquals("10.0.0.1:6443", d.path("serverAddressByClientCIDRs").get(0).path("serverAddress").asText());
    }

    @Test
    void aggregatedDocument() {
        ObjectNode d = DiscoveryDocuments.aggregated(List.of(
                new GroupEntry("", List.of("v1"), Map.of("v1", core())),
                new GroupEntry("apps", List.of("v1"), Map.of("v1", apps()))), "v2");

        assertEquals("APIGroupDiscoveryList", d.path("kind").asText());
        assertEquals("apidiscovery.k8s.io/v2", d.path("apiVersion").asText());
        assertTrue(d.path("metadata").isObject());
        JsonNode items = d.path("items");
        assertEquals(2, items.size());
        assertEquals("", items.get(0).path("metadata").path("name").asText(""));
        assertEquals("apps", items.get(1).path("metadata").path("name").asText());

        JsonNode v1 = items.get(0).path("versions").get(0);
        assertEquals("v1", v1.path("version").asText());
        assertEquals("Current", v1.path("freshness").asText());
        JsonNode resources = v1.path("resources");
        assertEquals(List.of("configmaps", "namespaces"), names(resources, "resource"),
                "subresources are nested, not listed as resources");

        JsonNode cm = resources.get(0);
        assertEquals("", cm.path("responseKind").path("group").asText());
        assertEquals("v1", cm.path("responseKind").path("version").asText());
        assertEquals("ConfigMap", cm.path("responseKind").path("kind").asText());
        assertEquals("Namespaced", cm.path("scope").asText());
        assertEquals("configmap", cm.path("singularResource").asText());
        assertEquals(ALL_VERBS, texts(cm.path("verbs")));
        assertEquals(List.of("cm"), texts(cm.path("shortNames")));
        assertFalse(cm.has("subresources"));

        JsonNode ns = resources.get(1);
        assertEquals("Cluster", ns.path("scope").asText());
        JsonNode subs = ns.path("subresources");
        assertEquals(List.of("finalize", "status"), names(subs, "subresource"));
        assertEquals(List.of("update"), texts(subs.get(0).path("verbs")));
        assertEquals(List.of("get", "patch", "update"), texts(subs.get(1).path("verbs")));
        assertEquals("Namespace", subs.get(1).path("responseKind").path("kind").asText());

        JsonNode deploy = items.get(1).path("versions").get(0).path("resources").get(0);
        assertEquals("deployments", deploy.path("resource").asText());
        assertEquals("apps", deploy.path("responseKind").path("group").asText());
        assertEquals(List.of("all"), texts(deploy.path("categories")));
        JsonNode scale = deploy.path("subresources").get(0);
        assertEquals("scale", scale.path("subresource").asText());
        assertEquals("apps", scale.path("responseKind").path("group").asText());
        assertEquals("Scale", scale.path("responseKind").path("kind").asText());
    }

    @Test
    void aggregatedVersionIsTheOneAskedFor() {
        ObjectNode d = DiscoveryDocuments.aggregated(List.of(), "v2beta1");

        assertEquals("apidiscovery.k8s.io/v2beta1", d.path("apiVersion").asText());
        assertEquals(0, d.path("items").size());
    }

    @Test
    void subresourceOfAResourceWithACommonPrefixIsNotNested() {
        Map<String, RESTStorage> resources = new TreeMap<>(Map.of("pods", CONFIGMAPS, "podtemplates", CONFIGMAPS,
                "pods/status", NAMESPACE_STATUS));

        JsonNode rs = DiscoveryDocuments.aggregated(List.of(new GroupEntry("", List.of("v1"),
                Map.of("v1", resources))), "v2").path("items").get(0).path("versions").get(0).path("resources");

        assertEquals(List.of("pods", "podtemplates"), names(rs, "resource"));
        assertEquals(1, rs.get(0).path("subresources").size());
        assertFalse(rs.get(1).has("subresources"));
    }

    @Test
    void remoteGroupsFollowTheLocalOnesAndAStaleVersionIsLeftOutOfApisButMarkedInAggregated() throws Exception {
        ObjectNode list = (ObjectNode) new com.fasterxml.jackson.databind.ObjectMapper().readTree("""
                {"kind":"APIResourceList","apiVersion":"v1","groupVersion":"metrics.k8s.io/v1beta1","resources":[
                 {"name":"nodes","singularName":"","namespaced":false,"kind":"NodeMetrics","verbs":["get","list"]},
                 {"name":"pods","singularName":"","namespaced":true,"kind":"PodMetrics","verbs":["get","list"],
                  "shortNames":["pm"]},
                 {"name":"pods/status","singularName":"","namespaced":true,"kind":"PodMetrics","verbs":["get"]}]}""");
        List<DiscoverySource.Group> remote = List.of(new DiscoverySource.Group("metrics.k8s.io", List.of(
                new DiscoverySource.Version("v1beta1", list, false, null),
                new DiscoverySource.Version("v1alpha1", list, true, null))));
        List<GroupEntry> local = List.of(new GroupEntry("apps", List.of("v1"), Map.of("v1", apps())));

        JsonNode groups = DiscoveryDocuments.apiGroupList(local, remote).path("groups");
        assertEquals(List.of("apps", "metrics.k8s.io"), names(groups, "name"));
        assertEquals(List.of("metrics.k8s.io/v1beta1"), names(groups.get(1).path("versions"), "groupVersion"));

        JsonNode items = DiscoveryDocuments.aggregated(local, remote, "v2").path("items");
        JsonNode versions = items.get(1).path("versions");
        assertEquals(List.of("Current", "Stale"), names(versions, "freshness"));
        JsonNode resources = versions.get(0).path("resources");
        assertEquals(List.of("nodes", "pods"), names(resources, "resource"));
        assertEquals("Cluster", resources.get(0).path("scope").asText());
        assertEquals("PodMetrics", resources.get(1).path("responseKind").path("kind").asText());
        assertEquals("metrics.k8s.io", resources.get(1).path("responseKind").path("group").asText());
        assertEquals("[\"pm\"]", resources.get(1).path("shortNames").toString());
        assertEquals("status", resources.get(1).path("subresources").get(0).path("subresource").asText());
    }

    @Test
    void withPrioritiesLocalAndRemoteGroupsAreSortedTogetherAsKubesAggregatorSortsAPIServices() {
        ObjectNode empty = new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode();
        List<DiscoverySource.Group> remote = List.of(
                new DiscoverySource.Group("metrics.k8s.io", List.of(new DiscoverySource.Version("v1beta1", empty, false, null))),
                new DiscoverySource.Group("b.example.com", List.of(new DiscoverySource.Version("v1", empty, false, null))));
        List<GroupEntry> local = List.of(
                new GroupEntry("apps", List.of("v1"), Map.of("v1", apps())),
                new GroupEntry("autoscaling", List.of("v1", "v2"), Map.of("v1", apps(), "v2", apps())),
                new GroupEntry("a.example.com", List.of("v1beta1", "v1"), Map.of("v1beta1", apps(), "v1", apps())),
                new GroupEntry("unlisted.example.com", List.of("v1"), Map.of("v1", apps())));
        DiscoveryOrder order = new DiscoveryOrder(List.of(
                new DiscoverySource.Priority("apps", "v1", 17800, 15),
                new DiscoverySource.Priority("autoscaling", "v1", 17500, 15),
                new DiscoverySource.Priority("autoscaling", "v2", 17500, 30),
                // A remote group may come before local ones.
                new DiscoverySource.Priority("metrics.k8s.io", "v1beta1", 17700, 100),
                // Equal priorities: by APIService name, <version>.<group>, and equal version priorities by kube's version order.
                new DiscoverySource.Priority("a.example.com", "v1beta1", 1000, 100),
                new DiscoverySource.Priority("a.example.com", "v1", 1000, 100),
                new DiscoverySource.Priority("b.example.com", "v1", 1000, 100)));

        JsonNode groups = DiscoveryDocuments.apiGroupList(local, remote, order).path("groups");
        assertEquals(List.of("apps", "metrics.k8s.io", "autoscaling", "a.example.com", "b.example.com",
                "unlisted.example.com"), names(groups, "name"));
        assertEquals(List.of("v2", "v1"), names(groups.get(2).path("versions"), "version"));
        assertEquals("autoscaling/v2", groups.get(2).path("preferredVersion").path("groupVersion").asText());
        assertEquals(List.of("v1", "v1beta1"), names(groups.get(3).path("versions"), "version"));

        JsonNode items = DiscoveryDocuments.aggregated(local, remote, order, "v2").path("items");
        List<String> names = new ArrayList<>();
        items.forEach(i -> names.add(i.path("metadata").path("name").asText()));
        assertEquals(names(groups, "name"), names);
        assertEquals(List.of("v2", "v1"), names(items.get(2).path("versions"), "version"));

        assertEquals(List.of("apps", "autoscaling", "a.example.com", "unlisted.example.com", "metrics.k8s.io",
                "b.example.com"), names(DiscoveryDocuments.apiGroupList(local, remote, DiscoveryOrder.NONE).path("groups"), "name"),
                "without priorities, the local groups come first as they are");
    }

    private static Map<String, RESTStorage> core() {
        Map<String, RESTStorage> m = new TreeMap<>();
        m.put("configmaps", CONFIGMAPS);
        m.put("namespaces", NAMESPACES);
        m.put("namespaces/status", NAMESPACE_STATUS);
        m.put("namespaces/finalize", NAMESPACE_FINALIZE);
        return m;
    }

    private static Map<String, RESTStorage> apps() {
        Map<String, RESTStorage> m = new TreeMap<>();
        m.put("deployments", DEPLOYMENTS);
        m.put("deployments/scale", SCALE);
        return m;
    }

    private static List<String> names(JsonNode array, String field) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.path(field).asText()));
        return out;
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    /** A storage implementing exactly {@code interfaces}; only the descriptive methods answer. */
    private static RESTStorage storage(String kind, String singular, boolean namespaced, List<String> shortNames,
                                       List<String> categories, Class<?>... interfaces) {
        Class<?>[] all = new Class<?>[interfaces.length + 1];
        all[0] = RESTStorage.class;
        System.arraycopy(interfaces, 0, all, 1, interfaces.length);
        return (RESTStorage) Proxy.newProxyInstance(DiscoveryDocumentsTest.class.getClassLoader(), all,
                (proxy, method, args) -> switch (method.getName()) {
                    case "kind" -> kind;
                    case "singularName" -> singular;
                    case "namespaced" -> namespaced;
                    case "shortNames" -> shortNames;
                    case "categories" -> categories;
                    case "tableColumns" -> List.of();
                    case "toString" -> kind;
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }
}
