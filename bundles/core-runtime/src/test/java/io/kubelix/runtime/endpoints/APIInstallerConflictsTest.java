package io.kubelix.runtime.endpoints;

import io.kubelix.api.registry.APIGroupInfo;
import io.kubelix.api.registry.RESTOptionsGetter;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.RESTStorageProvider;
import io.kubelix.runtime.plugins.ProvidedResource;
import org.junit.jupiter.api.Test;
import org.osgi.framework.Constants;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What APIInstaller reports to the plugin status: every provider's resources and who shadows whom. */
class APIInstallerConflictsTest {

    @Test
    void higherRankingServesAndTheLoserIsReportedWithItsWinner() {
        APIInstaller installer = new APIInstaller();
        RESTStorageProvider low = provider();
        RESTStorageProvider high = provider();
        installer.install(low, "Low", group(Map.of("widgets", storage("Widget"), "gadgets", storage("Gadget"))),
                Map.of(Constants.SERVICE_ID, 7L, Constants.SERVICE_RANKING, -10));
        installer.install(high, "High", group(Map.of("widgets", storage("Widget"))), Map.of(Constants.SERVICE_ID, 9L));

        List<ProvidedResource> provided = installer.provided();
        assertEquals(3, provided.size(), provided::toString);
        ProvidedResource served = find(provided, "High", "widgets");
        assertTrue(served.serving());
        assertEquals(9L, served.serviceId());
        ProvidedResource shadowed = find(provided, "Low", "widgets");
        assertFalse(shadowed.serving());
        assertEquals(9L, shadowed.shadowedBy());
        assertEquals(-10, shadowed.ranking());
        assertTrue(find(provided, "Low", "gadgets").serving());
        assertEquals("Widget", served.kind());
        assertEquals("sample.kubelix.io/v1/widgets", served.gvr());

        // the winner goes: the former loser serves, and nothing is shadowed any more
        installer.uninstall(high);
        assertTrue(installer.provided().stream().allMatch(ProvidedResource::serving), installer.provided()::toString);
        assertEquals(2, installer.provided().size());
    }

    private static ProvidedResource find(List<ProvidedResource> provided, String provider, String resource) {
        return provided.stream().filter(r -> r.provider().equals(provider) && r.resource().equals(resource))
                .findFirst().orElseThrow(() -> new AssertionError(provider + " " + resource + " not in " + provided));
    }

    private static APIGroupInfo group(Map<String, RESTStorage> resources) {
        return new APIGroupInfo("sample.kubelix.io", List.of("v1"), Map.of("v1", resources));
    }

    private static RESTStorageProvider provider() {
        return new RESTStorageProvider() {
            @Override
            public String groupName() {
                return "sample.kubelix.io";
            }

            @Override
            public APIGroupInfo newRESTStorage(RESTOptionsGetter restOptionsGetter) {
                throw new UnsupportedOperationException();
            }
        };
    }

    private static RESTStorage storage(String kind) {
        return new RESTStorage() {
            @Override
            public String kind() {
                return kind;
            }

            @Override
            public boolean namespaced() {
                return true;
            }

            @Override
            public String singularName() {
                return kind.toLowerCase();
            }
        };
    }
}
