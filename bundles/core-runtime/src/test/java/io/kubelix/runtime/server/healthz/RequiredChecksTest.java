package io.kubelix.runtime.server.healthz;

import io.kubelix.api.server.HealthChecker;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class RequiredChecksTest {
    private final List<HealthChecker> registered = new ArrayList<>();
    private final RequiredChecks checks = new RequiredChecks(() -> List.copyOf(registered),
            List.of("storage-backend", "informer-sync"));

    @Test
    void aRequiredCheckNobodyRegisteredFailsInItsPlaceBeforeShutdown() {
        registered.add(check("ping"));
        registered.add(check("shutdown"));

        List<HealthChecker> all = checks.get();

        assertEquals(List.of("ping", "storage-backend", "informer-sync", "shutdown"), names(all));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> all.get(1).check());
        assertEquals("not started yet", e.getMessage());
    }

    @Test
    void aRegisteredCheckTakesItsPlaceholdersPlace() throws Exception {
        HealthChecker storage = check("storage-backend");
        registered.add(check("ping"));
        registered.add(storage);
        registered.add(check("shutdown"));

        assertEquals(List.of("ping", "storage-backend", "informer-sync", "shutdown"), names(checks.get()));
        assertEquals(storage, checks.get().get(1));

        registered.add(1, check("informer-sync"));
        assertEquals(List.of("ping", "informer-sync", "storage-backend", "shutdown"), names(checks.get()));
        for (HealthChecker c : checks.get()) {
            c.check();
        }
    }

    @Test
    void withoutShutdownTheyComeLast() {
        assertEquals(List.of("storage-backend", "informer-sync"), names(checks.get()));
    }

    private static List<String> names(List<HealthChecker> checks) {
        return checks.stream().map(HealthChecker::name).toList();
    }

    private static HealthChecker check(String name) {
        return new HealthChecker() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public void check() {
            }
        };
    }
}
