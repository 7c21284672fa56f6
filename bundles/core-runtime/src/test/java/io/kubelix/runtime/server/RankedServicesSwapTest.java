package io.kubelix.runtime.server;

import org.junit.jupiter.api.Test;
import org.osgi.framework.Constants;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** While a service's bundle is being updated, readers wait for its new revision instead of going without it. */
class RankedServicesSwapTest {
    /** Bundles the test says are stopping transiently (being updated). */
    private final Set<Long> updating = ConcurrentHashMap.newKeySet();

    private PluginSwaps swaps(Duration grace) {
        return new PluginSwaps(p -> updating.contains(p.get(Constants.SERVICE_BUNDLEID)), grace);
    }

    @Test
    void readersWaitForTheReplacementOfAServiceBeingUpdated() throws Exception {
        RankedServices<String> services = new RankedServices<>(swaps(Duration.ofSeconds(30)));
        services.add("authn-v1", props(10L, 5L, "TokenAuthenticator"));
        services.add("other", props(11L, 6L, "OtherAuthenticator"));

        updating.add(5L);
        assertTrue(services.remove("authn-v1", props(10L, 5L, "TokenAuthenticator")));
        CompletableFuture<List<String>> reader = CompletableFuture.supplyAsync(services::get);
        assertThrows(TimeoutException.class, () -> reader.get(200, TimeUnit.MILLISECONDS),
                "a reader must not get the set without the authenticator being updated");

        updating.remove(5L);
        services.add("authn-v2", props(12L, 5L, "TokenAuthenticator"));
        assertEquals(List.of("other", "authn-v2"), reader.get(10, TimeUnit.SECONDS));
        assertEquals(List.of("other", "authn-v2"), services.get());
    }

    @Test
    void onlyTheSameComponentFromTheSameBundleEndsTheSwap() throws Exception {
        RankedServices<String> services = new RankedServices<>(swaps(Duration.ofSeconds(30)));
        services.add("a-v1", props(10L, 5L, "A"));
        updating.add(5L);
        services.remove("a-v1", props(10L, 5L, "A"));
        services.add("b", props(11L, 5L, "B"));
        services.add("a-from-another-bundle", props(12L, 7L, "A"));
        CompletableFuture<List<String>> reader = CompletableFuture.supplyAsync(services::get);
        assertThrows(TimeoutException.class, () -> reader.get(200, TimeUnit.MILLISECONDS));
        services.add("a-v2", props(13L, 5L, "A"));
        assertEquals(List.of("b", "a-from-another-bundle", "a-v2"), reader.get(10, TimeUnit.SECONDS));
    }

    /**
     * A request running on a storage of the bundle being updated holds up that update, so waiting
     * for the bundle's new revision would wait for itself: it goes on with the outgoing service.
     * A request holding another bundle still waits.
     */
    @Test
    void aRequestHoldingTheBundleBeingUpdatedUsesItsOutgoingServicesWithoutWaiting() throws Exception {
        RankedServices<String> services = new RankedServices<>(swaps(Duration.ofSeconds(30)));
        services.add("quota-v1", props(10L, 5L, "ResourceQuota"));
        services.add("other", props(11L, 6L, "Other"));
        updating.add(5L);
        services.remove("quota-v1", props(10L, 5L, "ResourceQuota"));

        CompletableFuture<List<String>> holder = CompletableFuture.supplyAsync(() -> {
            try (PluginSwaps.Held held = PluginSwaps.hold(5L)) {
                return services.get();
            }
        });
        assertEquals(List.of("quota-v1", "other"), holder.get(5, TimeUnit.SECONDS));

        CompletableFuture<List<String>> otherHolder = CompletableFuture.supplyAsync(() -> {
            try (PluginSwaps.Held held = PluginSwaps.hold(6L)) {
                return services.get();
            }
        });
        CompletableFuture<List<String>> afterRelease = CompletableFuture.supplyAsync(() -> {
            try (PluginSwaps.Held held = PluginSwaps.hold(5L)) {
                services.get();
            }
            return services.get();
        });
        assertThrows(TimeoutException.class, () -> otherHolder.get(200, TimeUnit.MILLISECONDS),
                "a request on another bundle's storage does not keep the bundle being updated");
        assertThrows(TimeoutException.class, () -> afterRelease.get(200, TimeUnit.MILLISECONDS),
                "once the request has left the storage it waits like any other");

        services.add("quota-v2", props(12L, 5L, "ResourceQuota"));
        assertEquals(List.of("other", "quota-v2"), otherHolder.get(10, TimeUnit.SECONDS));
        assertEquals(List.of("other", "quota-v2"), afterRelease.get(10, TimeUnit.SECONDS));
    }

    @Test
    void aServiceRemovedForGoodLeavesAtOnce() {
        RankedServices<String> services = new RankedServices<>(swaps(Duration.ofSeconds(30)));
        services.add("authn", props(10L, 5L, "TokenAuthenticator"));
        assertFalse(services.remove("authn", props(10L, 5L, "TokenAuthenticator")));
        assertEquals(List.of(), services.get());
    }

    @Test
    void anUpdateWhoseNewRevisionNeverComesEndsAfterTheGracePeriod() {
        RankedServices<String> services = new RankedServices<>(swaps(Duration.ofMillis(200)));
        services.add("authn", props(10L, 5L, "TokenAuthenticator"));
        updating.add(5L);
        services.remove("authn", props(10L, 5L, "TokenAuthenticator"));
        assertEquals(List.of(), services.get(), "after the grace period readers go on without it");
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
