package io.kubelix.resource.scheduling;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.registry.TableColumn;
import io.kubelix.api.request.RequestContext;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

class PriorityClassStrategyTest {
    private static final RequestContext CTX = RequestContext.system("");
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private final PriorityClassStrategy strategy = new PriorityClassStrategy();

    /** What {@code kubectl create priorityclass NAME --value=V} sends. */
    private static ObjectNode priorityClass(String name, long value) {
        ObjectNode pc = MAPPER.createObjectNode().put("apiVersion", "scheduling.k8s.io/v1").put("kind", "PriorityClass");
        pc.putObject("metadata").put("name", name);
        return pc.put("value", value).put("globalDefault", false);
    }

    private List<String> create(ObjectNode pc) {
        strategy.prepareForCreate(CTX, pc);
        return strategy.validate(CTX, pc).stream().map(FieldError::message).toList();
    }

    @Test
    void preemptionPolicyDefaultsToPreemptLowerPriority() {
        ObjectNode pc = priorityClass("high", 1000);
        assertEquals(List.of(), create(pc));
        assertEquals("PreemptLowerPriority", pc.path("preemptionPolicy").asText());

        ObjectNode never = priorityClass("never", 10).put("preemptionPolicy", "Never");
        assertEquals(List.of(), create(never));
        assertEquals("Never", never.path("preemptionPolicy").asText());
    }

    @Test
    void refusesWhatKubeRefusesWithItsMessages() {
        assertEquals(List.of("value: Forbidden: maximum allowed value of a user defined priority is 1000000000"),
                create(priorityClass("huge", 1_000_000_001L)));
        assertEquals(List.of("metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for "
                + "system use only. error: system-mine is not a known system priority class"),
                create(priorityClass("system-mine", 5)));
        assertEquals(List.of("metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for "
                + "system use only. error: value of system-node-critical PriorityClass must be 2000001000"),
                create(priorityClass("system-node-critical", 5)));
        assertEquals(List.of("preemptionPolicy: Unsupported value: \"Sometimes\": supported values: "
                + "\"PreemptLowerPriority\", \"Never\""), create(priorityClass("p", 5).put("preemptionPolicy", "Sometimes")));
    }

    @Test
    void theSystemClassesAsKubeCreatesThemAreValid() {
        for (String name : SystemPriorityClasses.CLASSES.keySet()) {
            ObjectNode pc = SystemPriorityClasses.priorityClass(name);
            assertEquals(List.of(), create(pc), name);
            assertFalse(pc.path("description").asText().isEmpty());
        }
        assertEquals(2000001000L, SystemPriorityClasses.priorityClass("system-node-critical").path("value").asLong());
        assertEquals(2000000000L, SystemPriorityClasses.priorityClass("system-cluster-critical").path("value").asLong());
    }

    @Test
    void valueAndPreemptionPolicyAreImmutable() {
        ObjectNode old = priorityClass("high", 1000);
        create(old);
        ObjectNode changed = old.deepCopy().put("value", 2000).put("preemptionPolicy", "Never");
        strategy.prepareForUpdate(CTX, changed, old);
        assertEquals(List.of("value: Forbidden: may not be changed in an update.",
                "preemptionPolicy: Invalid value: \"Never\": field is immutable"),
                strategy.validateUpdate(CTX, changed, old).stream().map(FieldError::message).toList());

        ObjectNode described = old.deepCopy().put("description", "now described");
        strategy.prepareForUpdate(CTX, described, old);
        assertEquals(List.of(), strategy.validateUpdate(CTX, described, old));
    }

    @Test
    void printsKubesColumns() {
        StoreSpec spec = SchedulingRESTStorageProvider.priorityClassSpec(strategy);
        assertEquals(List.of("pc"), spec.shortNames());
        assertFalse(spec.namespaced());
        assertNotNull(spec.schema());
        List<TableColumn> columns = spec.tableColumns();
        assertEquals(List.of("Name", "Value", "Global-Default", "Age", "PreemptionPolicy"),
                columns.stream().map(TableColumn::name).toList());
        ObjectNode pc = priorityClass("high", 1000);
        create(pc);
        assertEquals(List.of("high", 1000L, false, "PreemptLowerPriority"),
                columns.stream().filter(c -> !c.isAge()).map(c -> c.cell().apply(pc)).toList());
    }
}
