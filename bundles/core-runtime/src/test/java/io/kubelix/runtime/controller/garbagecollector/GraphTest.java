package io.kubelix.runtime.controller.garbagecollector;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubelix.api.schema.GroupVersionResource;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The dependency graph's edges follow each object's owner references as they change. */
class GraphTest {
    private static final GroupVersionResource CONFIGMAPS = new GroupVersionResource("", "v1", "configmaps");
    private static final ObjectMapper JSON = new ObjectMapper();

    private static Graph.Node node(String uid, String... owners) throws Exception {
        StringBuilder refs = new StringBuilder();
        for (String o : owners) {
            refs.append(refs.length() == 0 ? "" : ",").append("{\"uid\":\"").append(o).append("\"}");
        }
        return new Graph.Node(CONFIGMAPS, "", "ConfigMap", "default", uid,
                JSON.readTree("{\"uid\":\"" + uid + "\",\"ownerReferences\":[" + refs + "]}"));
    }

    private static List<String> uids(List<Graph.Node> nodes) {
        return nodes.stream().map(Graph.Node::uid).sorted().toList();
    }

    @Test
    void edgesFollowOwnerReferencesThroughUpdatesAndRemovals() throws Exception {
        Graph g = new Graph();
        g.put(node("a"));
        g.put(node("b", "a"));
        g.put(node("c", "a", "ghost"));
        assertEquals(List.of("b", "c"), uids(g.dependents("a")));
        assertEquals(List.of("c"), uids(g.dependents("ghost")), "an owner not in the graph has its dependents all the same");

        g.put(node("c", "b"));
        assertEquals(List.of("b"), uids(g.dependents("a")));
        assertEquals(List.of(), uids(g.dependents("ghost")));
        assertEquals(List.of("c"), uids(g.dependents("b")));

        g.remove("b");
        assertNull(g.get("b"));
        assertEquals(List.of(), uids(g.dependents("a")));
        assertEquals(List.of("c"), uids(g.dependents("b")), "c still names b until c changes");
        g.removeResource(CONFIGMAPS);
        assertEquals(0, g.size());
        assertEquals(List.of(), uids(g.dependents("b")));
    }
}
