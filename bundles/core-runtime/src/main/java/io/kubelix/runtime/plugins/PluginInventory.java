package io.kubelix.runtime.plugins;

import io.kubelix.api.admission.AdmissionPlugin;
import io.kubelix.api.admission.MutatingAdmissionPlugin;
import io.kubelix.api.admission.ValidatingAdmissionPlugin;
import io.kubelix.api.authn.Authenticator;
import io.kubelix.api.authz.Authorizer;
import io.kubelix.api.registry.RESTStorageProvider;
import io.kubelix.api.server.DelegationTarget;
import io.kubelix.api.server.HealthChecker;
import io.kubelix.api.storage.StorageBackend;
import io.kubelix.runtime.plugins.PluginReport.BundleInfo;
import io.kubelix.runtime.plugins.PluginReport.Service;
import io.kubelix.runtime.plugins.PluginReport.Type;
import io.kubelix.runtime.server.RankedServices;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.wiring.BundleRevision;
import org.osgi.framework.wiring.FrameworkWiring;
import org.osgi.resource.Namespace;
import org.osgi.resource.Requirement;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Gathers a {@link PluginReport} on demand from the service registry: each Kubelix whiteboard
 * service with the bundle that registered it ({@code ServiceReference.getBundle()}), every bundle
 * installed from {@code plugins/}, and the providers' resources as the server chain resolved them.
 * Nothing is cached: a report is as current as the registry when it is asked for.
 */
@Component(service = PluginInventory.class)
public final class PluginInventory {
    private static final Logger LOG = LoggerFactory.getLogger(PluginInventory.class);

    private final BundleContext context;
    private final Path pluginsFolder;
    private final RankedServices<ServedAPIs> servedAPIs = new RankedServices<>();

    @Activate
    public PluginInventory(BundleContext context) {
        this.context = context;
        String home = context.getProperty("kubelix.home");
        this.pluginsFolder = home == null ? null : Path.of(home, "plugins").toAbsolutePath().normalize();
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
    void addServedAPIs(ServedAPIs s, Map<String, Object> props) {
        servedAPIs.add(s, props);
    }

    void removeServedAPIs(ServedAPIs s) {
        servedAPIs.remove(s);
    }

    /** How many bundles installed from {@code plugins/} are in each state now (Active, Resolved, Installed...). */
    public Map<String, Integer> pluginStates() {
        Map<String, Integer> states = new java.util.TreeMap<>();
        for (Bundle b : context.getBundles()) {
            if (inFolder(b.getLocation(), pluginsFolder)) {
                states.merge(state(b.getState()), 1, Integer::sum);
            }
        }
        return states;
    }

    /** The report as of now. */
    public PluginReport report() {
        List<BundleInfo> bundles = new ArrayList<>();
        for (Bundle b : context.getBundles()) {
            bundles.add(new BundleInfo(b.getBundleId(), String.valueOf(b.getSymbolicName()), b.getVersion().toString(),
                    state(b.getState()), b.getLocation(), inFolder(b.getLocation(), pluginsFolder), unresolved(b)));
        }
        List<Service> services = new ArrayList<>();
        collect(services, RESTStorageProvider.class, Type.REST_STORAGE_PROVIDER, null);
        collect(services, Authenticator.class, Type.AUTHENTICATOR, null);
        collect(services, Authorizer.class, Type.AUTHORIZER, null);
        collect(services, MutatingAdmissionPlugin.class, Type.MUTATING_ADMISSION, AdmissionPlugin::name);
        collect(services, ValidatingAdmissionPlugin.class, Type.VALIDATING_ADMISSION, AdmissionPlugin::name);
        collect(services, StorageBackend.class, Type.STORAGE_BACKEND, null);
        collect(services, DelegationTarget.class, Type.DELEGATION_TARGET, DelegationTarget::name);
        collect(services, HealthChecker.class, Type.HEALTH_CHECK, HealthChecker::name);
        List<ProvidedResource> resources = new ArrayList<>();
        servedAPIs.get().forEach(s -> resources.addAll(s.providedResources()));
        return PluginReport.of(bundles, services, resources);
    }

    /**
     * Adds every registered service of {@code spi}. {@code name}, when given, asks the service
     * itself; the services are already in use by the server's whiteboards, so getting one
     * activates nothing new.
     */
    private <T> void collect(List<Service> into, Class<T> spi, Type type, Function<T, String> name) {
        ServiceReference<T>[] refs;
        try {
            @SuppressWarnings("unchecked")
            ServiceReference<T>[] found = (ServiceReference<T>[]) context.getAllServiceReferences(spi.getName(), null);
            refs = found;
        } catch (InvalidSyntaxException e) {
            throw new IllegalStateException(e);
        }
        if (refs == null) {
            return;
        }
        for (ServiceReference<T> ref : refs) {
            Bundle bundle = ref.getBundle();
            if (bundle == null) {
                continue; // unregistered meanwhile
            }
            long id = (Long) ref.getProperty(Constants.SERVICE_ID);
            int ranking = ref.getProperty(Constants.SERVICE_RANKING) instanceof Integer i ? i : 0;
            into.add(new Service(bundle.getBundleId(), type, serviceName(ref, name), id, ranking));
        }
    }

    private <T> String serviceName(ServiceReference<T> ref, Function<T, String> name) {
        if (ref.getProperty(StorageBackend.NAME_PROPERTY) instanceof String backend) {
            return backend;
        }
        if (name != null) {
            T service = null;
            try {
                service = context.getService(ref);
                if (service != null) {
                    return name.apply(service);
                }
            } catch (RuntimeException e) {
                LOG.debug("cannot ask service {} for its name: {}", ref.getProperty(Constants.SERVICE_ID), e.toString());
            } catch (LinkageError e) {
                // a service of a bundle wired to another core-api: report it by component name
                LOG.debug("service {} is not of this core-api: {}", ref.getProperty(Constants.SERVICE_ID), e.toString());
            } finally {
                if (service != null) {
                    context.ungetService(ref);
                }
            }
        }
        Object component = ref.getProperty("component.name");
        return component != null ? component.toString() : "service " + ref.getProperty(Constants.SERVICE_ID);
    }

    /**
     * The mandatory requirements of an unresolved bundle that nothing provides, as the resolver
     * would report them ({@code osgi.wiring.package; (osgi.wiring.package=x)}). Asking the
     * framework's wiring for providers resolves nothing, so a report changes no bundle.
     */
    private List<String> unresolved(Bundle b) {
        if (b.getState() != Bundle.INSTALLED) {
            return List.of();
        }
        BundleRevision revision = b.adapt(BundleRevision.class);
        if (revision == null) {
            return List.of();
        }
        FrameworkWiring wiring = context.getBundle(Constants.SYSTEM_BUNDLE_LOCATION).adapt(FrameworkWiring.class);
        if (wiring == null) {
            return List.of();
        }
        List<String> missing = new ArrayList<>();
        for (Requirement r : revision.getRequirements(null)) {
            String resolution = r.getDirectives().get(Namespace.REQUIREMENT_RESOLUTION_DIRECTIVE);
            if (Namespace.RESOLUTION_OPTIONAL.equals(resolution)
                    || Namespace.EFFECTIVE_ACTIVE.equals(r.getDirectives().getOrDefault(Namespace.REQUIREMENT_EFFECTIVE_DIRECTIVE,
                    Namespace.EFFECTIVE_RESOLVE))) {
                continue; // optional, or not checked at resolution (such as osgi.service)
            }
            if (wiring.findProviders(r).isEmpty()) {
                missing.add(r.getNamespace() + "; " + r.getDirectives().getOrDefault(Namespace.REQUIREMENT_FILTER_DIRECTIVE, ""));
            }
        }
        return missing;
    }

    /** Whether a bundle location (FileInstall's {@code file:} URLs) is a jar in {@code plugins/}. */
    static boolean inFolder(String location, Path folder) {
        if (folder == null || location == null || !location.startsWith("file:")) {
            return false;
        }
        Path path;
        try {
            path = Path.of(URI.create(location));
        } catch (RuntimeException e) {
            // not a well-formed URI (FileInstall may write "file:" + a raw path): take the path as written
            path = Path.of(location.substring("file:".length()));
        }
        return path.toAbsolutePath().normalize().startsWith(folder);
    }

    static String state(int state) {
        return switch (state) {
            case Bundle.UNINSTALLED -> "Uninstalled";
            case Bundle.INSTALLED -> "Installed";
            case Bundle.RESOLVED -> "Resolved";
            case Bundle.STARTING -> "Starting";
            case Bundle.STOPPING -> "Stopping";
            case Bundle.ACTIVE -> "Active";
            default -> Integer.toString(state);
        };
    }
}
