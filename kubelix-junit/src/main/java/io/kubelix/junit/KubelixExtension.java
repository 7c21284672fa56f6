package io.kubelix.junit;

import io.kubelix.junit.impl.CrdSources;
import io.kubelix.junit.impl.NamespaceResource;
import io.kubelix.junit.impl.ServerResource;
import io.kubelix.junit.impl.SpareServers;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The JUnit 5 extension behind {@link KubelixTest}: starts a {@link KubelixServer} before the test
 * class (or reuses the run's shared one), creates the class's CustomResourceDefinitions on it, and
 * injects into parameters and fields:
 * <ul>
 *   <li>{@link KubelixServer}: URL, CA, admin token, kubeconfig;</li>
 *   <li>{@code @Kubeconfig Path}: the admin kubeconfig;</li>
 *   <li>{@code @TestNamespace String}: a namespace of the test's own, deleted after it;</li>
 *   <li>fabric8's {@code KubernetesClient} and client-java's {@code ApiClient}, when the test
 *       class path has them: one of each per server, ready as the admin user.</li>
 * </ul>
 * Static fields are filled before {@code @BeforeAll} methods, instance fields before each test.
 * Use it through {@link KubelixTest}, or register it on a static field:
 * <pre>
 * &#64;RegisterExtension
 * static final KubelixExtension KUBELIX = KubelixExtension.perClass().withFlag("authorization-mode", "AlwaysAllow");
 * </pre>
 */
public final class KubelixExtension implements BeforeAllCallback, BeforeEachCallback, ParameterResolver {
    private static final ExtensionContext.Namespace STORE = ExtensionContext.Namespace.create(KubelixExtension.class);
    /** The server of a class (and its nested classes): a {@link Current}, never closed by the store. */
    private static final String CURRENT = "current";
    /** A server the class owns: a {@link ServerResource}, stopped with the class. */
    private static final String OWNED = "owned";
    /**
     * JUnit configuration parameter: start each class's server while the class before runs
     * ({@link SpareServers}), at the cost of one server started for nothing at the end of the run.
     */
    public static final String PRESTART = "kubelix.junit.prestart";
    private static final String FABRIC8_CLIENT = "io.fabric8.kubernetes.client.KubernetesClient";
    private static final String CLIENT_JAVA_CLIENT = "io.kubernetes.client.openapi.ApiClient";

    private final boolean configured;
    private final boolean shared;
    private final Map<String, String> flags;
    private final List<String> crds;
    private volatile KubelixServer server;

    /** The extension as {@link KubelixTest} registers it: configured by the annotation. */
    public KubelixExtension() {
        this(false, false, Map.of(), List.of());
    }

    private KubelixExtension(boolean configured, boolean shared, Map<String, String> flags, List<String> crds) {
        this.configured = configured;
        this.shared = shared;
        this.flags = flags;
        this.crds = crds;
    }

    /** A server for the test class that registers it, stopped after the class. */
    public static KubelixExtension perClass() {
        return new KubelixExtension(true, false, Map.of(), List.of());
    }

    /** One server for every class of the run that registers a shared extension with the same flags. */
    public static KubelixExtension shared() {
        return new KubelixExtension(true, true, Map.of(), List.of());
    }

    /** This extension with one more kube-apiserver flag, by name without dashes. */
    public KubelixExtension withFlag(String name, String value) {
        Map<String, String> more = new LinkedHashMap<>(flags);
        more.put(name, value);
        return new KubelixExtension(true, shared, Map.copyOf(more), crds);
    }

    /** This extension with more CustomResourceDefinitions to create before the tests, as {@link KubelixTest#crds()}. */
    public KubelixExtension withCrds(String... sources) {
        List<String> more = new ArrayList<>(crds);
        more.addAll(List.of(sources));
        return new KubelixExtension(true, shared, flags, List.copyOf(more));
    }

    /** The server of the class that registered this extension, once its {@code beforeAll} has run. */
    public KubelixServer server() {
        KubelixServer current = server;
        if (current == null) {
            throw new IllegalStateException("no Kubelix server yet: it starts before the test class's @BeforeAll methods,"
                    + " and only for an extension registered on a static field");
        }
        return current;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        Class<?> testClass = context.getRequiredTestClass();
        Optional<KubelixTest> annotation = AnnotationSupport.findAnnotation(testClass, KubelixTest.class);
        Current inherited = context.getStore(STORE).get(CURRENT, Current.class);
        // A @Nested class without an annotation of its own runs against its enclosing class's server.
        if (inherited != null && (configured || !testClass.isAnnotationPresent(KubelixTest.class))) {
            server = inherited.resource().server();
            injectFields(context, null, inherited.resource());
            return;
        }
        boolean shareIt = configured ? shared : annotation.map(KubelixTest::shared).orElse(false);
        Map<String, String> serverFlags = configured ? flags : parseFlags(annotation.map(KubelixTest::flags)
                .orElse(new String[0]));
        ServerResource resource;
        if (shareIt) {
            resource = context.getRoot().getStore(STORE).getOrComputeIfAbsent("shared " + new TreeMap<>(serverFlags),
                    key -> new ServerResource(KubelixServer.start(serverFlags)), ServerResource.class);
        } else {
            boolean prestart = context.getConfigurationParameter(PRESTART).map(Boolean::parseBoolean).orElse(false);
            resource = new ServerResource(prestart
                    ? context.getRoot().getStore(STORE).getOrComputeIfAbsent(SpareServers.class).take(serverFlags)
                    : KubelixServer.start(serverFlags));
            context.getStore(STORE).put(OWNED, resource);
        }
        context.getStore(STORE).put(CURRENT, new Current(resource));
        server = resource.server();
        // on a shared server, a class's definitions that another class created already are only waited for
        List<String> crdSources = configured ? crds : List.of(annotation.map(KubelixTest::crds).orElse(new String[0]));
        for (String yaml : CrdSources.read(crdSources, testClass.getClassLoader())) {
            server.createCustomResourceDefinitions(yaml);
        }
        injectFields(context, null, resource);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        ServerResource resource = resource(context);
        for (Object instance : context.getRequiredTestInstances().getAllInstances()) {
            injectFields(context, instance, resource);
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return supports(parameter.getParameter().getType(), parameter.getParameter());
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        try {
            return value(parameter.getParameter().getType(), parameter.getParameter(), context, resource(context));
        } catch (RuntimeException e) {
            throw new ParameterResolutionException("Kubelix cannot give " + parameter.getParameter() + ": "
                    + e.getMessage(), e);
        }
    }

    private static boolean supports(Class<?> type, AnnotatedElement element) {
        if (type == KubelixServer.class) {
            return true;
        }
        if (type == Path.class) {
            return element.isAnnotationPresent(Kubeconfig.class);
        }
        if (type == String.class) {
            return element.isAnnotationPresent(TestNamespace.class);
        }
        return type.getName().equals(FABRIC8_CLIENT) || type.getName().equals(CLIENT_JAVA_CLIENT);
    }

    private static Object value(Class<?> type, AnnotatedElement element, ExtensionContext context,
                                ServerResource resource) {
        if (type == KubelixServer.class) {
            return resource.server();
        }
        if (type == Path.class) {
            return resource.server().kubeconfig();
        }
        if (type == String.class) {
            return namespace(context, resource).name();
        }
        return resource.client(type.getName());
    }

    /** The namespace of this context (a test method's, or a class's when asked for before the tests), made once. */
    private static NamespaceResource namespace(ExtensionContext context, ServerResource resource) {
        String testName = context.getTestMethod().map(m -> m.getName())
                .orElseGet(() -> context.getRequiredTestClass().getSimpleName());
        // keyed by the context's id: a method must not find its class's namespace in the parent store
        return context.getStore(STORE).getOrComputeIfAbsent("namespace " + context.getUniqueId(),
                key -> NamespaceResource.create(resource.server(), testName), NamespaceResource.class);
    }

    /** Static fields when {@code instance} is null, else the instance's fields. */
    private static void injectFields(ExtensionContext context, Object instance, ServerResource resource) {
        Class<?> type = instance == null ? context.getRequiredTestClass() : instance.getClass();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                boolean isStatic = Modifier.isStatic(field.getModifiers());
                if (isStatic != (instance == null) || Modifier.isFinal(field.getModifiers())
                        || !supports(field.getType(), field)) {
                    continue;
                }
                try {
                    field.setAccessible(true);
                    field.set(instance, value(field.getType(), field, context, resource));
                } catch (IllegalAccessException | RuntimeException e) {
                    throw new ExtensionConfigurationException("Kubelix cannot set " + field + ": " + e.getMessage(), e);
                }
            }
        }
    }

    private static ServerResource resource(ExtensionContext context) {
        Current current = context.getStore(STORE).get(CURRENT, Current.class);
        if (current == null) {
            throw new ExtensionConfigurationException("no Kubelix server for " + context.getDisplayName()
                    + ": register KubelixExtension on a static field (or use @KubelixTest), so that it starts before"
                    + " the tests");
        }
        return current.resource();
    }

    private static Map<String, String> parseFlags(String[] flags) {
        Map<String, String> parsed = new LinkedHashMap<>();
        for (String flag : flags) {
            int eq = flag.indexOf('=');
            if (eq <= 0) {
                throw new ExtensionConfigurationException("@KubelixTest flag \"" + flag + "\" is not name=value");
            }
            String name = flag.substring(0, eq).trim().replaceFirst("^--", "");
            parsed.put(name, flag.substring(eq + 1).trim());
        }
        return Map.copyOf(parsed);
    }

    /** A reference to a server stored under {@link #CURRENT}: not a closeable resource, so the store never stops it. */
    private record Current(ServerResource resource) {
    }
}
