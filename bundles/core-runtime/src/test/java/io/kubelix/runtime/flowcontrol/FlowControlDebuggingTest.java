package io.kubelix.runtime.flowcontrol;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class FlowControlDebuggingTest {

    @Test
    void cellsAreJoinedByCommasAndAlignedAsGosTabwriterDoes() {
        assertEquals("""
                PriorityLevelName, ActiveQueues, IsIdle
                catch-all,         0,            true
                workload-low,      3,            false
                """, FlowControlDebugging.table(List.of(
                List.of("PriorityLevelName", "ActiveQueues", "IsIdle"),
                List.of("catch-all", "0", "true"),
                List.of("workload-low", "3", "false"))));
    }
}
