package io.kubelix.api.schema;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The order kube documents for a CRD's versions in discovery, preferred first. */
class VersionPriorityTest {
    @Test
    void gaThenBetaThenAlphaNewerFirstThenOtherNames() {
        List<String> expected = List.of("v10", "v2", "v1", "v11beta2", "v10beta3", "v3beta1", "v12alpha1", "v11alpha2",
                "foo1", "foo10");
        List<String> shuffled = new ArrayList<>(expected);
        Collections.shuffle(shuffled, new java.util.Random(15));
        shuffled.sort(VersionPriority::compare);
        assertEquals(expected, shuffled);
    }
}
