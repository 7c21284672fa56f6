package io.kubelix.junit;

import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** One of two classes on the run's shared server: both must get the same, still serving, server. */
@KubelixTest(shared = true)
class SharedServerSecondTest {

    @Test
    void usesTheServerOfTheOtherSharedClass(KubelixServer server, KubernetesClient client) {
        SharedServer.SEEN.add(server);
        assertEquals(1, SharedServer.SEEN.size(), "one server for both classes");
        assertEquals("default", client.namespaces().withName("default").get().getMetadata().getName());
    }
}
