package io.kubelix.resource.flowcontrol;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.registry.TableColumn;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.kubelix.resource.flowcontrol.Fixtures.aliceSchema;
import static io.kubelix.resource.flowcontrol.Fixtures.create;
import static io.kubelix.resource.flowcontrol.Fixtures.json;
import static io.kubelix.resource.flowcontrol.Fixtures.priorityLevel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FlowcontrolPrintersTest {

    private static List<String> headers(StoreSpec spec) {
        return spec.tableColumns().stream().map(c -> c.name().toUpperCase(java.util.Locale.ROOT)).toList();
    }

    /** The cells but AGE, which the Table builder renders. */
    private static List<Object> cells(StoreSpec spec, ObjectNode o) {
        List<Object> out = new ArrayList<>();
        spec.tableColumns().stream().filter(c -> !c.isAge()).forEach(c -> out.add(c.cell().apply(o)));
        return out;
    }

    @Test
    void bothKindsAreClusterScopedWithoutShortNamesOrCategories() {
        for (StoreSpec spec : List.of(FlowcontrolRESTStorageProvider.flowSchemaSpec(),
                FlowcontrolRESTStorageProvider.priorityLevelSpec())) {
            assertFalse(spec.namespaced());
            assertTrue(spec.shortNames().isEmpty());
            assertTrue(spec.categories().isEmpty());
            assertTrue(spec.generation());
            assertNotNull(spec.schema());
        }
    }

    @Test
    void flowSchemaColumns() {
        StoreSpec spec = FlowcontrolRESTStorageProvider.flowSchemaSpec();
        assertEquals(List.of("NAME", "PRIORITYLEVEL", "MATCHINGPRECEDENCE", "DISTINGUISHERMETHOD", "AGE", "MISSINGPL"),
                headers(spec));
        ObjectNode fs = aliceSchema();
        create(FlowcontrolStrategy.flowSchema(), fs);
        assertEquals(List.of("alice", "workload-low", 1000L, "<none>", "?"), cells(spec, fs));
        ((ObjectNode) fs.get("spec")).set("distinguisherMethod", json("{'type':'ByNamespace'}"));
        fs.set("status", json("{'conditions':[{'type':'Dangling','status':'False'}]}"));
        assertEquals(List.of("alice", "workload-low", 1000L, "ByNamespace", "False"), cells(spec, fs));
    }

    @Test
    void priorityLevelColumns() {
        StoreSpec spec = FlowcontrolRESTStorageProvider.priorityLevelSpec();
        assertEquals(List.of("NAME", "TYPE", "NOMINALCONCURRENCYSHARES", "QUEUES", "HANDSIZE", "QUEUELENGTHLIMIT", "AGE"),
                headers(spec));
        ObjectNode queued = priorityLevel("workload", "{'type':'Limited','limited':{'limitResponse':{'type':'Queue','queuing':{}}}}");
        create(FlowcontrolStrategy.priorityLevel(), queued);
        assertEquals(List.of("workload", "Limited", 30L, 64L, 8L, 50L), cells(spec, queued));
        ObjectNode rejecting = priorityLevel("catch-all", "{'type':'Limited','limited':{'nominalConcurrencyShares':5,"
                + "'limitResponse':{'type':'Reject'}}}");
        assertEquals(List.of("catch-all", "Limited", 5L, "<none>", "<none>", "<none>"), cells(spec, rejecting));
        ObjectNode exempt = priorityLevel("exempt", "{'type':'Exempt'}");
        assertEquals(List.of("exempt", "Exempt", "<none>", "<none>", "<none>", "<none>"), cells(spec, exempt));
    }
}
