package io.kubelix.runtime.server;

import org.junit.jupiter.api.Test;
import org.osgi.framework.Constants;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A service whose bundle is being updated stays in use until its new revision takes its place. */
class RankedServicesSwapTest {
    /** Bundles the test says are stopping transiently (being updated). */
    private final Set<Long> updating = ConcurrentHashMap.newKeySet();
    private final PluginSwaps swaps = new PluginSwaps(p -> updating.contains(p.get(Constants.SERVICE_BUNDLEID)),
            Duration.ofMillis(200));

    @Test
    void anUpdatedServiceServesUntilItsReplacementArrivesThenLeavesInTheSameSwap() {
        RankedServices<String> services = new RankedServices<>(swaps);
        services.add("authn-v1", props(10L, 5L, "TokenAuthenticator"));
        services.add("other", props(11L, 6L, "OtherAuthenticator"));

        updating.add(5L);
        assertTrue(services.remove("authn-v1", props(10L, 5L, "TokenAuthenticator")));
        assertEquals(List.of("authn-v1", "other"), services.get(), "while the bundle is updated the old service serves");

        updating.remove(5L);
        services.add("authn-v2", props(12L, 5L, "TokenAuthenticator"));
        assertEquals(List.of("other", "authn-v2"), services.get());
    }

    @Test
    void aServiceOfAnotherComponentDoesNotReplaceTheOutgoingOne() {
        RankedServices<String> services = new RankedServices<>(swaps);
        services.add("a-v1", props(10L, 5L, "A"));
        updating.add(5L);
        services.remove("a-v1", props(10L, 5L, "A"));
        services.add("b", props(11L, 5L, "B"));
        services.add("a-from-another-bundle", props(12L, 7L, "A"));
        assertEquals(List.of("a-v1", "b", "a-from-another-bundle"), services.get());
    }

    @Test
    void aServiceRemovedForGoodLeavesAtOnce() {
        RankedServices<String> services = new RankedServices<>(swaps);
        services.add("authn", props(10L, 5L, "TokenAuthenticator"));
        assertFalse(services.remove("authn", props(10L, 5L, "TokenAuthenticator")));
        assertEquals(List.of(), services.get());
    }

    @Test
    void anUpdateWhoseNewRevisionNeverComesEndsAfterTheGracePeriod() throws Exception {
        RankedServices<String> services = new RankedServices<>(swaps);
        services.add("authn", props(10L, 5L, "TokenAuthenticator"));
        updating.add(5L);
        services.remove("authn", props(10L, 5L, "TokenAuthenticator"));
        assertEquals(List.of("authn"), services.get());
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!services.get().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(List.of(), services.get(), "the outgoing service is dropped when the grace period ends");
    }

    @Test
    void withoutSwapsEveryRemovalIsImmediate() {
        RankedServices<String> services = new RankedServices<>();
        services.add("authn", props(10L, 5L, "TokenAuthenticator"));
        updating.add(5L);
        assertFalse(services.remove("authn", props(10L, 5L, "TokenAuthenticator")));
        assertEquals(List.of(), services.get());
    }

    static Map<String, Object> props(long serviceId, long bundleId, String component) {
        return Map.of(Constants.SERVICE_ID, serviceId, Constants.SERVICE_BUNDLEID, bundleId, "component.name", component);
    }
}
