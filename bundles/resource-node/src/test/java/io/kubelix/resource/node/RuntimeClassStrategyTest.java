package io.kubelix.resource.node;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.request.RequestContext;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class RuntimeClassStrategyTest {
    private static final RequestContext CTX = RequestContext.system("");
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private final RuntimeClassStrategy strategy = new RuntimeClassStrategy();

    private static ObjectNode runtimeClass(String name, String handler) {
        ObjectNode rc = MAPPER.createObjectNode().put("apiVersion", "node.k8s.io/v1").put("kind", "RuntimeClass");
        rc.putObject("metadata").put("name", name);
        return rc.put("handler", handler);
    }

    private List<String> create(ObjectNode rc) {
        strategy.prepareForCreate(CTX, rc);
        return strategy.validate(CTX, rc).stream().map(FieldError::message).toList();
    }

    @Test
    void aRuntimeClassWithOverheadAndSchedulingIsValid() {
        ObjectNode rc = runtimeClass("gvisor", "runsc");
        rc.putObject("overhead").putObject("podFixed").put("cpu", "250m").put("memory", "120Mi");
        ObjectNode scheduling = rc.putObject("scheduling");
        scheduling.putObject("nodeSelector").put("runtime", "gvisor");
        scheduling.putArray("tolerations").addObject().put("key", "runtime").put("operator", "Equal").put("value", "gvisor")
                .put("effect", "NoSchedule");
        assertEquals(List.of(), create(rc));
    }

    @Test
    void refusesWhatKubeRefusesWithItsMessages() {
        assertEquals(List.of("handler: Invalid value: \"Run_SC\": a lowercase RFC 1123 label must consist of lower case "
                + "alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or "
                + "'123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"), create(runtimeClass("a", "Run_SC")));

        ObjectNode overhead = runtimeClass("b", "runc");
        overhead.putObject("overhead").putObject("podFixed").put("cpu", "-1").put("gpu", "1");
        assertEquals(List.of("overhead.limits[cpu]: Invalid value: \"-1\": must be greater than or equal to 0",
                "overhead.limits[gpu]: Invalid value: \"gpu\": must be a standard resource for containers"), create(overhead));

        ObjectNode tolerations = runtimeClass("c", "runc");
        ObjectNode t = tolerations.putObject("scheduling").putArray("tolerations").addObject().put("operator", "Equal");
        ((com.fasterxml.jackson.databind.node.ArrayNode) tolerations.path("scheduling").path("tolerations")).add(t.deepCopy());
        assertEquals(List.of("scheduling.tolerations[0].operator: Invalid value: \"Equal\": operator must be Exists when "
                + "`key` is empty, which means \"match all values and all keys\"",
                "scheduling.tolerations[1].operator: Invalid value: \"Equal\": operator must be Exists when `key` is empty, "
                + "which means \"match all values and all keys\"",
                "scheduling.tolerations[1]: Duplicate value: core.Toleration{Key:\"\", Operator:\"Equal\", Value:\"\", "
                + "Effect:\"\", TolerationSeconds:(*int64)(nil)}"), create(tolerations));
    }

    @Test
    void theHandlerIsImmutable() {
        ObjectNode old = runtimeClass("gvisor", "runsc");
        create(old);
        ObjectNode changed = old.deepCopy().put("handler", "runc");
        strategy.prepareForUpdate(CTX, changed, old);
        assertEquals(List.of("handler: Invalid value: \"runc\": field is immutable"),
                strategy.validateUpdate(CTX, changed, old).stream().map(FieldError::message).toList());
    }
}
