package io.kubelix.runtime.plugins;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A snapshot of the plugin bundles, what each contributes, and which group/version/resources are
 * shadowed (the data of {@code /kubelix/plugins}, {@code kubelix:plugins} and {@code kubelix:groups}).
 * Built by {@link #of} from plain descriptions of bundles and services, so it is tested without a
 * framework; {@link PluginInventory} gathers them from the service registry.
 *
 * @param plugins   every bundle that contributes a Kubelix service, was installed from
 *                  {@code plugins/}, or cannot resolve, by bundle id
 * @param conflicts every GVR offered by more than one provider, by GVR
 */
public record PluginReport(List<Plugin> plugins, List<Conflict> conflicts) {

    /**
     * A bundle as the framework knows it.
     *
     * @param unresolved for a bundle that is not resolved, its mandatory requirements that no
     *                   bundle of the framework can satisfy ({@code namespace; filter}), so an
     *                   operator sees why a plugin stays Installed; empty otherwise
     */
    public record BundleInfo(long id, String symbolicName, String version, String state, String location,
                             boolean inPluginsFolder, List<String> unresolved) {
        public BundleInfo {
            unresolved = unresolved == null ? List.of() : List.copyOf(unresolved);
        }
    }

    /** The kinds of whiteboard services Kubelix collects, with the JSON member listing them. */
    public enum Type {
        REST_STORAGE_PROVIDER("restStorageProviders", "RESTStorageProvider"),
        AUTHENTICATOR("authenticators", "Authenticator"),
        AUTHORIZER("authorizers", "Authorizer"),
        MUTATING_ADMISSION("admissionPlugins", "MutatingAdmissionPlugin"),
        VALIDATING_ADMISSION("admissionPlugins", "ValidatingAdmissionPlugin"),
        STORAGE_BACKEND("storageBackends", "StorageBackend"),
        DELEGATION_TARGET("delegationTargets", "DelegationTarget"),
        HEALTH_CHECK("healthChecks", "HealthChecker");

        private final String member;
        private final String spi;

        Type(String member, String spi) {
            this.member = member;
            this.spi = spi;
        }

        /** The JSON member of a plugin's {@code contributes} that lists services of this type. */
        public String member() {
            return member;
        }

        /** The SPI interface's simple name. */
        public String spi() {
            return spi;
        }
    }

    /**
     * One registered whiteboard service.
     *
     * @param bundleId  the registering bundle
     * @param type      what it is
     * @param name      its name: the plugin's own name where the SPI has one (admission plugins,
     *                  health checks, delegation targets, storage backends), else the DS component name
     * @param serviceId its {@code service.id}
     * @param ranking   its {@code service.ranking}
     */
    public record Service(long bundleId, Type type, String name, long serviceId, int ranking) {
    }

    /** A plugin bundle and what it contributes. */
    public record Plugin(BundleInfo bundle, List<ProvidedResource> apiResources, List<Service> services) {
        public List<Service> services(Type type) {
            return services.stream().filter(s -> s.type() == type).toList();
        }
    }

    /** One provider of a GVR: its bundle and service. */
    public record Provider(long bundleId, String symbolicName, String provider, long serviceId, int ranking) {
    }

    /** A GVR offered by several providers: the one serving it, and the ones it shadows. */
    public record Conflict(String group, String version, String resource, Provider servedBy, List<Provider> shadowed) {
    }

    /**
     * Builds the report.
     *
     * @param bundles   every bundle of the framework
     * @param services  every Kubelix whiteboard service, RESTStorageProviders included
     * @param resources what the server chain reports from its providers ({@link ServedAPIs})
     */
    public static PluginReport of(List<BundleInfo> bundles, List<Service> services, List<ProvidedResource> resources) {
        Map<Long, BundleInfo> bundlesById = new LinkedHashMap<>();
        bundles.forEach(b -> bundlesById.put(b.id(), b));
        Map<Long, Long> bundleOfService = new LinkedHashMap<>();
        services.forEach(s -> bundleOfService.put(s.serviceId(), s.bundleId()));

        // 1. Plugins: bundles that contribute something, that the operator put into plugins/, or
        //    that cannot resolve (a plugin that failed is shown, not silently dropped).
        Set<Long> ids = new TreeSet<>();
        bundles.stream().filter(b -> b.inPluginsFolder() || !b.unresolved().isEmpty()).forEach(b -> ids.add(b.id()));
        services.forEach(s -> ids.add(s.bundleId()));
        List<Plugin> plugins = new ArrayList<>();
        for (long id : ids) {
            BundleInfo b = bundlesById.get(id);
            if (b == null) {
                continue; // uninstalled while we looked
            }
            List<ProvidedResource> own = resources.stream()
                    .filter(r -> Long.valueOf(id).equals(bundleOfService.get(r.serviceId())))
                    .sorted(GVR_ORDER)
                    .toList();
            List<Service> contributed = services.stream().filter(s -> s.bundleId() == id)
                    .sorted(Comparator.comparing(Service::type).thenComparing(Service::name))
                    .toList();
            plugins.add(new Plugin(b, own, contributed));
        }

        // 2. Conflicts: every shadowed GVR, with the provider serving it.
        Map<String, Conflict> conflicts = new LinkedHashMap<>();
        for (ProvidedResource r : resources.stream().filter(r -> !r.serving()).sorted(GVR_ORDER).toList()) {
            Provider loser = provider(r.provider(), r.serviceId(), r.ranking(), bundleOfService, bundlesById);
            Conflict c = conflicts.get(r.gvr());
            if (c == null) {
                ProvidedResource winner = resources.stream()
                        .filter(w -> w.serving() && w.serviceId() == r.shadowedBy() && w.gvr().equals(r.gvr()))
                        .findFirst().orElse(null);
                Provider servedBy = winner == null ? null
                        : provider(winner.provider(), winner.serviceId(), winner.ranking(), bundleOfService, bundlesById);
                c = new Conflict(r.group(), r.version(), r.resource(), servedBy, new ArrayList<>());
                conflicts.put(r.gvr(), c);
            }
            c.shadowed().add(loser);
        }
        List<Conflict> conflictList = conflicts.values().stream()
                .map(c -> new Conflict(c.group(), c.version(), c.resource(), c.servedBy(), List.copyOf(c.shadowed())))
                .toList();
        return new PluginReport(List.copyOf(plugins), conflictList);
    }

    /** The served GVRs with the bundle serving each, by group, version and resource. */
    public List<Served> served() {
        List<Served> served = new ArrayList<>();
        for (Plugin p : plugins) {
            for (ProvidedResource r : p.apiResources()) {
                if (r.serving()) {
                    served.add(new Served(r, p.bundle()));
                }
            }
        }
        served.sort(Comparator.comparing(Served::resource, GVR_ORDER));
        return served;
    }

    /** A served GVR and the bundle serving it. */
    public record Served(ProvidedResource resource, BundleInfo bundle) {
    }

    private static Provider provider(String name, long serviceId, int ranking, Map<Long, Long> bundleOfService,
                                     Map<Long, BundleInfo> bundles) {
        Long bundleId = bundleOfService.get(serviceId);
        BundleInfo b = bundleId == null ? null : bundles.get(bundleId);
        return new Provider(b == null ? -1 : b.id(), b == null ? "" : b.symbolicName(), name, serviceId, ranking);
    }

    /** Core group first, then groups, versions and resources by name; equal GVRs by precedence. */
    private static final Comparator<ProvidedResource> GVR_ORDER = Comparator
            .comparing((ProvidedResource r) -> !r.group().isEmpty())
            .thenComparing(ProvidedResource::group)
            .thenComparing(ProvidedResource::version)
            .thenComparing(ProvidedResource::resource)
            .thenComparing(r -> -r.ranking());
}
