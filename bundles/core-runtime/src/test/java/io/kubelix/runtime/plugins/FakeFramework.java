package io.kubelix.runtime.plugins;

import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.Version;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Just enough of a framework for {@link PluginInventory}: bundles, services registered by them
 * (by interface name), and a BundleContext answering getBundles, getAllServiceReferences,
 * getService and getProperty. Built from JDK proxies, as the framework's types are interfaces.
 */
final class FakeFramework {
    private final List<Bundle> bundles = new ArrayList<>();
    private final List<Registration> services = new ArrayList<>();
    private final Map<String, String> properties = new HashMap<>();
    private long nextServiceId = 100;

    private record Registration(String[] interfaces, Object service, ServiceReference<?> reference) {
    }

    FakeFramework property(String key, String value) {
        properties.put(key, value);
        return this;
    }

    Bundle bundle(long id, String symbolicName, String version, int state, String location) {
        Bundle b = (Bundle) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[]{Bundle.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getBundleId" -> id;
                    case "getSymbolicName" -> symbolicName;
                    case "getVersion" -> Version.parseVersion(version);
                    case "getState" -> state;
                    case "getLocation" -> location;
                    case "adapt" -> null; // no wiring: unresolved requirements are not computed
                    case "hashCode" -> Long.hashCode(id);
                    case "equals" -> proxy == args[0];
                    case "toString" -> symbolicName + " [" + id + "]";
                    default -> throw new UnsupportedOperationException(method.getName());
                });
        bundles.add(b);
        return b;
    }

    /** Registers {@code service} from {@code bundle} under {@code spi}; returns its service.id. */
    long register(Bundle bundle, Class<?> spi, Object service, Map<String, Object> props) {
        long id = nextServiceId++;
        Map<String, Object> all = new LinkedHashMap<>(props);
        all.put(Constants.SERVICE_ID, id);
        all.put(Constants.OBJECTCLASS, new String[]{spi.getName()});
        ServiceReference<?> ref = (ServiceReference<?>) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[]{ServiceReference.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getProperty" -> all.get((String) args[0]);
                    case "getBundle" -> bundle;
                    case "hashCode" -> Long.hashCode(id);
                    case "equals" -> proxy == args[0];
                    case "toString" -> "service " + id;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
        services.add(new Registration(new String[]{spi.getName()}, service, ref));
        return id;
    }

    BundleContext context() {
        return (BundleContext) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[]{BundleContext.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getBundles" -> bundles.toArray(new Bundle[0]);
                    case "getProperty" -> properties.get((String) args[0]);
                    case "getAllServiceReferences" -> references((String) args[0]);
                    case "getService" -> services.stream().filter(r -> r.reference() == args[0]).findFirst()
                            .map(Registration::service).orElse(null);
                    case "ungetService" -> true;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    private ServiceReference<?>[] references(String clazz) {
        ServiceReference<?>[] found = services.stream().filter(r -> List.of(r.interfaces()).contains(clazz))
                .map(Registration::reference).toArray(ServiceReference<?>[]::new);
        return found.length == 0 ? null : found;
    }
}
