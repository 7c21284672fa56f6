package io.kubelix.runtime.server.healthz;

import io.kubelix.api.server.HealthChecker;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The checks of one health endpoint: those registered now, and, for each check the endpoint cannot
 * pass without but that nobody has registered yet, one of that name that fails. So whatever order
 * the framework starts the components in (a plain Felix starts every bundle at one start level),
 * {@code /readyz} never passes because a check it needs has not arrived: it waits for storage
 * ({@code storage-backend}), the informers of the served resources ({@code informer-sync}) and the
 * system namespaces and {@code kubernetes} service ({@code poststarthook/...}) from the moment the
 * server listens. A required check stands just before {@code shutdown}, the last one.
 */
public final class RequiredChecks implements Supplier<List<HealthChecker>> {
    /** The checks {@code /readyz} cannot pass without, as kube-apiserver's etcd, informer-sync and poststarthook checks. */
    public static final List<String> READYZ = List.of("storage-backend", "informer-sync",
            "poststarthook/start-system-namespaces-controller", "poststarthook/bootstrap-controller");
    private static final String LAST = "shutdown";

    private final Supplier<List<HealthChecker>> registered;
    private final Map<String, HealthChecker> placeholders = new LinkedHashMap<>();

    public RequiredChecks(Supplier<List<HealthChecker>> registered, List<String> required) {
        this.registered = registered;
        for (String name : required) {
            placeholders.put(name, new Missing(name));
        }
    }

    @Override
    public List<HealthChecker> get() {
        List<HealthChecker> checks = registered.get();
        Set<String> present = new HashSet<>();
        checks.forEach(c -> present.add(c.name()));
        if (present.containsAll(placeholders.keySet())) {
            return checks;
        }
        List<HealthChecker> all = new ArrayList<>(checks);
        int at = !all.isEmpty() && all.get(all.size() - 1).name().equals(LAST) ? all.size() - 1 : all.size();
        for (HealthChecker p : placeholders.values()) {
            if (!present.contains(p.name())) {
                all.add(at++, p);
            }
        }
        return all;
    }

    /** A required check that is not registered yet. */
    private record Missing(String name) implements HealthChecker {
        @Override
        public void check() {
            throw new IllegalStateException("not started yet");
        }
    }
}
