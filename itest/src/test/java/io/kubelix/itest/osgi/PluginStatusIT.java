package io.kubelix.itest.osgi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.APIGroupInfo;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTOptionsGetter;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.RESTStorageProvider;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.itest.osgi.ApiClient.Response;
import org.junit.Before;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.Configuration;
import org.ops4j.pax.exam.Option;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.Constants;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.ServiceRegistration;

import javax.inject.Inject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

/**
 * The plugin status in a real container: {@code GET /kubelix/plugins} lists the plugin bundles
 * with what each contributes (from the service registry), a resource bundle installed at run time
 * appears with its group/version/resources, and a second provider of the same GVR with a lower
 * ranking is reported as shadowed. The Gogo commands are services Gogo calls by reflection; the
 * test calls them the same way.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class PluginStatusIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final String PLUGINS = "/kubelix/plugins";
    private static final String SAMPLE = "io.kubelix.sample-resource";
    private static final String GROUP = "sample.kubelix.io";

    @Inject
    private BundleContext context;

    private ApiClient api;

    @Configuration
    public Option[] configure() {
        return KubelixContainer.container(PluginStatusIT.class);
    }

    @Before
    public void serverIsUp() {
        api = new ApiClient(context);
        api.awaitReady(TIMEOUT);
        // widgets live in namespace default, which resource-core creates after start-up
        ApiClient.await(TIMEOUT, "namespace default", () -> api.get("/api/v1/namespaces/default"), r -> r.status() == 200);
    }

    @Test
    public void listsThePluginsAndWhatEachContributes() {
        Response r = api.get(PLUGINS);
        assertEquals(r.toString(), 200, r.status());
        assertTrue(r.contentType(), r.contentType().startsWith("application/json"));
        JsonNode core = plugin(r.json(), "io.kubelix.resource-core");
        assertEquals("Active", core.path("state").asText());
        assertEquals(Bundles.kubelix(context, "resource-core").getLocation(), core.path("location").asText());
        assertTrue(core.toString(), names(core.path("contributes").path("apiResources"), "resource")
                .containsAll(List.of("configmaps", "namespaces", "secrets")));
        // resource-core's admission plugins, each with its type.
        List<String> admission = new java.util.ArrayList<>();
        core.path("contributes").path("admissionPlugins").forEach(a -> admission.add(a.path("name").asText() + "/"
                + a.path("type").asText()));
        assertTrue(admission.toString(), admission.containsAll(List.of("ResourceQuota/validating",
                "LimitRanger/mutating", "ServiceAccount/mutating")));
        assertTrue(admission.toString(), admission.stream().anyMatch(a -> a.startsWith("NamespaceLifecycle/")));
        JsonNode authn = plugin(r.json(), "io.kubelix.authn-token").path("contributes").path("authenticators");
        assertEquals(authn.toString(), 1, authn.size());
        JsonNode memory = plugin(r.json(), "io.kubelix.storage-memory").path("contributes").path("storageBackends");
        assertEquals("memory", memory.path(0).path("name").asText());
        JsonNode runtime = plugin(r.json(), "io.kubelix.core-runtime").path("contributes").path("delegationTargets");
        assertEquals("kube-apiserver", runtime.path(0).path("name").asText());
        assertEquals(0, r.json().path("conflicts").size());
    }

    @Test
    public void endpointIsAuthenticatedAndReadOnly() {
        assertEquals(401, api.getWithoutCredentials(PLUGINS).status());
        Response post = api.post(PLUGINS, "{}");
        assertEquals(post.toString(), 405, post.status());
        assertEquals("MethodNotAllowed", post.statusReason());
        Response unknown = api.get("/kubelix/nothing-here");
        assertEquals(unknown.toString(), 404, unknown.status());
        assertEquals("NotFound", unknown.statusReason());
    }

    @Test
    public void installedResourceBundleAppearsAndALowerRankedProviderIsShadowed() throws Exception {
        // 1. the sample resource bundle appears with its GVR, served
        Bundle sample = context.installBundle(KubelixContainer.reactorBundleLocation(KubelixContainer.SAMPLE_RESOURCE));
        ServiceRegistration<RESTStorageProvider> shadow = null;
        try {
            sample.start();
            Response listed = ApiClient.await(TIMEOUT, SAMPLE + " serving widgets", () -> api.get(PLUGINS),
                    r -> r.status() == 200 && findPlugin(r.json(), SAMPLE) != null
                            && findPlugin(r.json(), SAMPLE).path("contributes").path("apiResources").size() == 1);
            JsonNode widgets = plugin(listed.json(), SAMPLE).path("contributes").path("apiResources").path(0);
            assertEquals(GROUP, widgets.path("group").asText());
            assertEquals("v1", widgets.path("version").asText());
            assertEquals("widgets", widgets.path("resource").asText());
            assertEquals("Widget", widgets.path("kind").asText());
            assertTrue(widgets.path("serving").asBoolean());
            assertEquals(sample.getVersion().toString(), plugin(listed.json(), SAMPLE).path("version").asText());

            // 2. a second provider of the same GVR, ranked lower, is shadowed, and both bundles are named
            Dictionary<String, Object> props = new Hashtable<>();
            props.put(Constants.SERVICE_RANKING, -10);
            shadow = context.registerService(RESTStorageProvider.class, new ShadowWidgets(), props);
            String probe = context.getBundle().getSymbolicName();
            Response conflicted = ApiClient.await(TIMEOUT, "a conflict on widgets", () -> api.get(PLUGINS),
                    r -> r.status() == 200 && r.json().path("conflicts").size() == 1);
            JsonNode conflict = conflicted.json().path("conflicts").path(0);
            assertEquals(GROUP, conflict.path("group").asText());
            assertEquals("v1", conflict.path("version").asText());
            assertEquals("widgets", conflict.path("resource").asText());
            assertEquals(SAMPLE, conflict.path("servedBy").path("bundle").asText());
            assertEquals(sample.getBundleId(), conflict.path("servedBy").path("bundleId").asLong());
            assertEquals(probe, conflict.path("shadowed").path(0).path("bundle").asText());
            assertEquals(-10, conflict.path("shadowed").path(0).path("ranking").asInt());
            JsonNode shadowed = plugin(conflicted.json(), probe).path("contributes").path("apiResources").path(0);
            assertFalse(shadowed.toString(), shadowed.path("serving").asBoolean());
            // the winner still serves: the sample's strategy rejects a negative size, the shadow's would not
            Response created = api.post("/apis/" + GROUP + "/v1/namespaces/default/widgets",
                    "{\"apiVersion\":\"" + GROUP + "/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"neg\"},"
                            + "\"spec\":{\"size\":-1}}");
            assertEquals(created.toString(), 422, created.status());

            // 3. the Gogo commands show the same
            String plugins = command("plugins");
            assertTrue(plugins, plugins.contains(SAMPLE));
            assertTrue(plugins, plugins.lines().anyMatch(l -> l.startsWith(GROUP + "/v1/widgets ")
                    && l.contains(SAMPLE + " [" + sample.getBundleId() + "] ranking 0") && l.contains("ranking -10")));
            String groups = command("groups");
            assertTrue(groups, groups.lines().anyMatch(l -> l.matches(GROUP.replace(".", "\\.")
                    + "\\s+v1\\s+widgets\\s+Widget\\s+true\\s+" + SAMPLE.replace(".", "\\.") + " \\[\\d+]\\s+.*")));
            assertTrue(groups, groups.lines().anyMatch(l -> l.matches("core\\s+v1\\s+configmaps\\s+ConfigMap\\s+.*")));

            // 4. the shadow goes: no conflict left
            shadow.unregister();
            shadow = null;
            ApiClient.await(TIMEOUT, "no conflict", () -> api.get(PLUGINS),
                    r -> r.status() == 200 && r.json().path("conflicts").size() == 0);
        } finally {
            if (shadow != null) {
                shadow.unregister();
            }
            sample.uninstall();
        }
        // 5. an uninstalled bundle is no longer listed
        ApiClient.await(TIMEOUT, SAMPLE + " gone", () -> api.get(PLUGINS),
                r -> r.status() == 200 && findPlugin(r.json(), SAMPLE) == null);
    }

    @Test
    public void unresolvedBundleShowsWhatIsMissing() throws Exception {
        // a bundle importing a package nobody exports: it stays Installed, and the status says why
        Path jar = Files.createTempFile("unresolved", ".jar");
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().putValue("Manifest-Version", "1.0");
        manifest.getMainAttributes().putValue("Bundle-ManifestVersion", "2");
        manifest.getMainAttributes().putValue("Bundle-SymbolicName", "com.example.unresolved");
        manifest.getMainAttributes().putValue("Bundle-Version", "1.0.0");
        manifest.getMainAttributes().putValue("Import-Package", "com.example.missing");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest)) {
            out.flush();
        }
        Bundle b = context.installBundle(jar.toUri().toString());
        try {
            try {
                b.start();
            } catch (BundleException expected) {
                // cannot resolve
            }
            JsonNode listed = plugin(api.get(PLUGINS).json(), "com.example.unresolved");
            assertEquals("Installed", listed.path("state").asText());
            assertTrue(listed.toString(), listed.path("unresolved").path(0).asText()
                    .matches("osgi\\.wiring\\.package; .*osgi\\.wiring\\.package=com\\.example\\.missing.*"));
        } finally {
            b.uninstall();
            Files.deleteIfExists(jar);
        }
    }

    /** Calls a kubelix:* Gogo command as Gogo does: the service's public method of that name. */
    private String command(String function) throws Exception {
        ServiceReference<?>[] refs = context.getServiceReferences((String) null,
                "(&(osgi.command.scope=kubelix)(osgi.command.function=" + function + "))");
        assertNotNull("no service for kubelix:" + function, refs);
        Object service = context.getService(refs[0]);
        try {
            return String.valueOf(service.getClass().getMethod(function).invoke(service));
        } finally {
            context.ungetService(refs[0]);
        }
    }

    private static JsonNode plugin(JsonNode doc, String symbolicName) {
        JsonNode p = findPlugin(doc, symbolicName);
        if (p == null) {
            throw new AssertionError("no plugin " + symbolicName + " in " + doc);
        }
        return p;
    }

    private static JsonNode findPlugin(JsonNode doc, String symbolicName) {
        for (JsonNode p : doc.path("plugins")) {
            if (symbolicName.equals(p.path("symbolicName").asText())) {
                return p;
            }
        }
        return null;
    }

    private static List<String> names(JsonNode items, String field) {
        List<String> names = new java.util.ArrayList<>();
        items.forEach(i -> names.add(i.path(field).asText()));
        return names;
    }

    /** Another provider of widgets.sample.kubelix.io/v1, accepting anything. */
    private static final class ShadowWidgets implements RESTStorageProvider {
        private static final GroupResource WIDGETS = GroupResource.of(GROUP, "widgets");

        @Override
        public String groupName() {
            return GROUP;
        }

        @Override
        public APIGroupInfo newRESTStorage(RESTOptionsGetter getter) {
            RESTStorage widgets = getter.newStore(StoreSpec.builder(WIDGETS, "Widget").strategy(new AnyWidget()).build());
            return new APIGroupInfo(GROUP, List.of("v1"), Map.of("v1", Map.of("widgets", widgets)));
        }
    }

    private static final class AnyWidget implements RESTCreateStrategy, RESTUpdateStrategy {
        @Override
        public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
            return List.of();
        }

        @Override
        public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
            return List.of();
        }
    }
}
