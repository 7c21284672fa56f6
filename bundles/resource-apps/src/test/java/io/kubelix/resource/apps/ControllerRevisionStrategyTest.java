package io.kubelix.resource.apps;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.kubelix.resource.apps.Fixtures.CTX;
import static io.kubelix.resource.apps.Fixtures.json;
import static org.junit.jupiter.api.Assertions.assertEquals;

class ControllerRevisionStrategyTest {
    private final ControllerRevisionStrategy strategy = new ControllerRevisionStrategy();

    @Test
    void dataIsMandatoryAndRevisionNonNegative() {
        assertEquals(List.of("data: Required value: data is mandatory",
                "revision: Invalid value: -1: must be greater than or equal to 0"),
                strategy.validate(CTX, json("{'metadata':{'name':'r'},'revision':-1}")).stream().map(FieldError::message).toList());
    }

    @Test
    void dataIsImmutable() {
        ObjectNode old = json("{'metadata':{'name':'r'},'data':{'spec':{'a':1}},'revision':1}");
        ObjectNode changed = json("{'metadata':{'name':'r'},'data':{'spec':{'a':2}},'revision':2}");

        assertEquals(List.of(), strategy.validateUpdate(CTX, old.deepCopy(), old));
        assertEquals(List.of("data"), strategy.validateUpdate(CTX, changed, old).stream().map(FieldError::field).toList());
    }
}
