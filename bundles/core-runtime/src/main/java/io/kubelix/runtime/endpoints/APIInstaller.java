package io.kubelix.runtime.endpoints;

import io.kubelix.api.registry.APIGroupInfo;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.RESTStorageProvider;
import io.kubelix.runtime.plugins.ProvidedResource;
import io.kubelix.runtime.server.RankedServices;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps the installed API groups and publishes the RouteTable built from them. When several
 * providers serve the same group, version and resource, the one with the higher ranking (then
 * the older service) serves it; the others are reported as shadowed.
 */
final class APIInstaller {
    private static final Logger LOG = LoggerFactory.getLogger(APIInstaller.class);

    private record Installed(RESTStorageProvider provider, String name, APIGroupInfo info, int ranking, long id) {
    }

    private final List<Installed> installed = new ArrayList<>();
    private volatile RouteTable routes = RouteTable.EMPTY;
    /** Every provider's resources, served or shadowed, for the plugin status. */
    private volatile List<ProvidedResource> provided = List.of();

    RouteTable routes() {
        return routes;
    }

    List<ProvidedResource> provided() {
        return provided;
    }

    synchronized void install(RESTStorageProvider provider, String name, APIGroupInfo info, Map<String, ?> props) {
        installed.add(new Installed(provider, name, info, RankedServices.ranking(props), RankedServices.id(props)));
        rebuild();
        info.versionedResourcesStorageMap().forEach((v, resources) -> LOG.info("installed {} {} from {}: {}",
                info.groupName().isEmpty() ? "core" : info.groupName(), v, name, String.join(", ", resources.keySet())));
    }

    synchronized void uninstall(RESTStorageProvider provider) {
        List<Installed> gone = installed.stream().filter(i -> i.provider() == provider).toList();
        installed.removeAll(gone);
        rebuild();
        for (Installed i : gone) {
            LOG.info("uninstalled API group {} from {}", i.info().groupName().isEmpty() ? "core" : i.info().groupName(),
                    i.name());
            i.info().versionedResourcesStorageMap().values().forEach(m -> m.values().forEach(RESTStorage::destroy));
        }
    }

    /** Resolves conflicts per group/version/resource and swaps in the new table. */
    private void rebuild() {
        List<Installed> ordered = new ArrayList<>(installed);
        ordered.sort(Comparator.comparingInt((Installed i) -> -i.ranking()).thenComparingLong(Installed::id));
        Map<String, Installed> served = new HashMap<>();
        List<APIGroupInfo> winners = new ArrayList<>();
        List<ProvidedResource> report = new ArrayList<>();
        for (Installed i : ordered) {
            Map<String, Map<String, RESTStorage>> kept = new LinkedHashMap<>();
            i.info().versionedResourcesStorageMap().forEach((v, resources) -> {
                Map<String, RESTStorage> keep = new LinkedHashMap<>();
                resources.forEach((r, s) -> {
                    String gvr = i.info().groupName() + "/" + v + "/" + r;
                    Installed winner = served.putIfAbsent(gvr, i);
                    report.add(new ProvidedResource(i.info().groupName(), v, r, s.kind(), s.namespaced(), i.name(),
                            i.id(), i.ranking(), winner == null ? -1 : winner.id()));
                    if (winner == null) {
                        keep.put(r, s);
                    } else {
                        LOG.warn("conflict: {} from {} (ranking {}) is shadowed by a higher-ranked provider", gvr,
                                i.name(), i.ranking());
                    }
                });
                kept.put(v, keep);
            });
            winners.add(new APIGroupInfo(i.info().groupName(), i.info().prioritizedVersions(), kept));
        }
        routes = RouteTable.of(winners);
        provided = List.copyOf(report);
    }
}
