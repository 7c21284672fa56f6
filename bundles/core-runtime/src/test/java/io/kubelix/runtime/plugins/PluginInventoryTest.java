package io.kubelix.runtime.plugins;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.ValidatingAdmissionPlugin;
import io.kubelix.api.authn.Authenticator;
import io.kubelix.api.registry.RESTStorageProvider;
import io.kubelix.api.server.APIRequest;
import io.kubelix.api.server.APIResponse;
import io.kubelix.api.server.DelegationTarget;
import io.kubelix.api.storage.StorageBackend;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.osgi.framework.Bundle;
import org.osgi.framework.Constants;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The plugin status over a fake registry: which bundles are listed, what each contributes, the
 * shadowed GVRs, the JSON document of {@code /kubelix/plugins} and the Gogo commands' tables.
 */
class PluginInventoryTest {
    private static final Path HOME = Path.of("/opt/kubelix");
    private static final String PLUGINS = "file:/opt/kubelix/plugins/";

    private final FakeFramework framework = new FakeFramework().property("kubelix.home", HOME.toString());
    private final List<ProvidedResource> provided = new ArrayList<>();
    private PluginInventory inventory;
    private long sampleProvider;
    private long shadowProvider;

    @BeforeEach
    void registry() {
        framework.bundle(0, "org.apache.felix.framework", "7.0.5", Bundle.ACTIVE, "System Bundle");
        framework.bundle(3, "org.eclipse.jetty.server", "12.0.39", Bundle.ACTIVE, "file:/opt/kubelix/system/jetty-server.jar");
        Bundle runtime = framework.bundle(5, "io.kubelix.core-runtime", "0.1.0.SNAPSHOT", Bundle.ACTIVE,
                "file:/opt/kubelix/system/core-runtime.jar");
        Bundle core = framework.bundle(12, "io.kubelix.resource-core", "0.1.0.SNAPSHOT", Bundle.ACTIVE,
                PLUGINS + "resource-core.jar");
        Bundle authn = framework.bundle(13, "io.kubelix.authn-token", "0.1.0.SNAPSHOT", Bundle.ACTIVE,
                PLUGINS + "authn-token.jar");
        Bundle memory = framework.bundle(14, "io.kubelix.storage-memory", "0.1.0.SNAPSHOT", Bundle.ACTIVE,
                PLUGINS + "storage-memory.jar");
        framework.bundle(15, "com.example.broken", "1.0.0", Bundle.INSTALLED, PLUGINS + "broken.jar");
        Bundle sample = framework.bundle(20, "com.example.widgets", "1.2.0", Bundle.ACTIVE,
                "file:/tmp/widgets.jar");
        Bundle shadow = framework.bundle(21, "com.example.widgets-shadow", "0.9.0", Bundle.ACTIVE,
                "file:/tmp/shadow.jar");

        framework.register(runtime, DelegationTarget.class, target("kube-apiserver"), Map.of());
        long coreProvider = framework.register(core, RESTStorageProvider.class, null,
                Map.of("component.name", "io.kubelix.resource.core.CoreRESTStorageProvider"));
        framework.register(core, ValidatingAdmissionPlugin.class, admission("NamespaceLifecycle"), Map.of());
        framework.register(authn, Authenticator.class, (Authenticator) r -> Optional.empty(),
                Map.of("component.name", "io.kubelix.authn.token.TokenFileAuthenticator"));
        framework.register(memory, StorageBackend.class, null, Map.of(StorageBackend.NAME_PROPERTY, "memory"));
        sampleProvider = framework.register(sample, RESTStorageProvider.class, null, Map.of("component.name", "Widgets"));
        shadowProvider = framework.register(shadow, RESTStorageProvider.class, null,
                Map.of("component.name", "ShadowWidgets", Constants.SERVICE_RANKING, -10));

        provided.add(resource("", "configmaps", "ConfigMap", "io.kubelix.resource.core.CoreRESTStorageProvider", coreProvider, 0, -1));
        provided.add(resource("", "namespaces", "Namespace", "io.kubelix.resource.core.CoreRESTStorageProvider", coreProvider, 0, -1));
        provided.add(resource("sample.kubelix.io", "widgets", "Widget", "Widgets", sampleProvider, 0, -1));
        provided.add(resource("sample.kubelix.io", "widgets", "Widget", "ShadowWidgets", shadowProvider, -10, sampleProvider));
        provided.add(resource("sample.kubelix.io", "gadgets", "Gadget", "ShadowWidgets", shadowProvider, -10, -1));

        inventory = new PluginInventory(framework.context());
        inventory.addServedAPIs(() -> provided, Map.of());
    }

    @Test
    void listsContributingBundlesAndEveryBundleOfThePluginsFolder() {
        PluginReport report = inventory.report();
        assertEquals(List.of(5L, 12L, 13L, 14L, 15L, 20L, 21L),
                report.plugins().stream().map(p -> p.bundle().id()).toList());
        PluginReport.Plugin broken = plugin(report, 15);
        assertEquals("Installed", broken.bundle().state());
        assertTrue(broken.bundle().inPluginsFolder());
        assertTrue(broken.services().isEmpty());
        assertFalse(plugin(report, 20).bundle().inPluginsFolder());
    }

    @Test
    void namesEachContributionAsOperatorsKnowIt() {
        PluginReport report = inventory.report();
        assertEquals(List.of("kube-apiserver"), names(plugin(report, 5), PluginReport.Type.DELEGATION_TARGET));
        assertEquals(List.of("NamespaceLifecycle"), names(plugin(report, 12), PluginReport.Type.VALIDATING_ADMISSION));
        assertEquals(List.of("io.kubelix.authn.token.TokenFileAuthenticator"),
                names(plugin(report, 13), PluginReport.Type.AUTHENTICATOR));
        assertEquals(List.of("memory"), names(plugin(report, 14), PluginReport.Type.STORAGE_BACKEND));
        assertEquals(List.of("configmaps", "namespaces"),
                plugin(report, 12).apiResources().stream().map(ProvidedResource::resource).toList());
        assertEquals(-10, plugin(report, 21).services(PluginReport.Type.REST_STORAGE_PROVIDER).get(0).ranking());
    }

    @Test
    void reportsTheShadowedResourceWithBothBundles() {
        List<PluginReport.Conflict> conflicts = inventory.report().conflicts();
        assertEquals(1, conflicts.size());
        PluginReport.Conflict c = conflicts.get(0);
        assertEquals("sample.kubelix.io/v1/widgets", c.group() + "/" + c.version() + "/" + c.resource());
        assertEquals("com.example.widgets", c.servedBy().symbolicName());
        assertEquals(sampleProvider, c.servedBy().serviceId());
        assertEquals(1, c.shadowed().size());
        assertEquals("com.example.widgets-shadow", c.shadowed().get(0).symbolicName());
        assertEquals(-10, c.shadowed().get(0).ranking());
    }

    @Test
    void jsonDocumentOfTheEndpoint() {
        JsonNode doc = PluginReportJson.toJson(inventory.report());
        JsonNode core = pluginNode(doc, "io.kubelix.resource-core");
        assertEquals(12, core.path("bundleId").asLong());
        assertEquals("0.1.0.SNAPSHOT", core.path("version").asText());
        assertEquals("Active", core.path("state").asText());
        assertEquals(PLUGINS + "resource-core.jar", core.path("location").asText());
        JsonNode contributes = core.path("contributes");
        for (String member : List.of("apiResources", "restStorageProviders", "authenticators", "authorizers",
                "admissionPlugins", "storageBackends", "delegationTargets", "healthChecks")) {
            assertTrue(contributes.path(member).isArray(), member + " in " + contributes);
        }
        JsonNode cm = contributes.path("apiResources").path(0);
        assertEquals("", cm.path("group").asText());
        assertEquals("v1", cm.path("version").asText());
        assertEquals("configmaps", cm.path("resource").asText());
        assertEquals("ConfigMap", cm.path("kind").asText());
        assertTrue(cm.path("serving").asBoolean());
        assertFalse(cm.has("shadowedBy"));
        JsonNode admission = contributes.path("admissionPlugins").path(0);
        assertEquals("NamespaceLifecycle", admission.path("name").asText());
        assertEquals("validating", admission.path("type").asText());

        JsonNode shadowed = pluginNode(doc, "com.example.widgets-shadow").path("contributes").path("apiResources");
        JsonNode widgets = shadowed.path(1);
        assertEquals("widgets", widgets.path("resource").asText(), shadowed.toString());
        assertFalse(widgets.path("serving").asBoolean());
        assertEquals(sampleProvider, widgets.path("shadowedBy").asLong());

        JsonNode conflict = doc.path("conflicts").path(0);
        assertEquals("sample.kubelix.io", conflict.path("group").asText());
        assertEquals("widgets", conflict.path("resource").asText());
        assertEquals("com.example.widgets", conflict.path("servedBy").path("bundle").asText());
        assertEquals(20, conflict.path("servedBy").path("bundleId").asLong());
        assertEquals("ShadowWidgets", conflict.path("shadowed").path(0).path("provider").asText());
        assertEquals(-10, conflict.path("shadowed").path(0).path("ranking").asInt());
    }

    @Test
    void pluginsCommandPrintsBundlesAndConflicts() {
        String out = new PluginCommands(inventory).plugins();
        List<String> lines = out.lines().toList();
        assertTrue(lines.get(0).matches("ID\\s+BUNDLE\\s+VERSION\\s+STATE\\s+CONTRIBUTES\\s+LOCATION"), out);
        assertTrue(out.contains("core/v1: configmaps, namespaces; validating admission NamespaceLifecycle"), out);
        assertTrue(lines.stream().anyMatch(l -> l.matches("15\\s+com\\.example\\.broken\\s+1\\.0\\.0\\s+Installed\\s+-\\s+file:.*broken\\.jar")), out);
        assertTrue(out.contains("sample.kubelix.io/v1: gadgets, widgets (shadowed)"), out);
        assertTrue(lines.stream().anyMatch(l -> l.matches("sample\\.kubelix\\.io/v1/widgets\\s+com\\.example\\.widgets \\[20] ranking 0\\s+"
                + "com\\.example\\.widgets-shadow \\[21] ranking -10")), out);
    }

    @Test
    void pluginsCommandSaysWhenNothingIsShadowed() {
        provided.removeIf(r -> !r.serving());
        String out = new PluginCommands(inventory).plugins();
        assertTrue(out.contains("No conflicts"), out);
    }

    @Test
    void groupsCommandListsServedResourcesOnly() {
        String out = new PluginCommands(inventory).groups();
        List<String> lines = out.lines().toList();
        assertTrue(lines.get(0).matches("GROUP\\s+VERSION\\s+RESOURCE\\s+KIND\\s+NAMESPACED\\s+BUNDLE\\s+PROVIDER"), out);
        assertEquals(5, lines.size(), out); // header, configmaps, namespaces, gadgets, widgets
        assertTrue(lines.get(1).matches("core\\s+v1\\s+configmaps\\s+ConfigMap\\s+true\\s+io\\.kubelix\\.resource-core \\[12]\\s+.*"), out);
        assertTrue(lines.get(3).matches("sample\\.kubelix\\.io\\s+v1\\s+gadgets\\s+Gadget\\s+true\\s+com\\.example\\.widgets-shadow \\[21]\\s+ShadowWidgets"), out);
        assertTrue(lines.get(4).matches("sample\\.kubelix\\.io\\s+v1\\s+widgets\\s+Widget\\s+true\\s+com\\.example\\.widgets \\[20]\\s+Widgets"), out);
    }

    @Test
    void unresolvedRequirementsOfAnInstalledPluginAreShown() {
        String missing = "osgi.wiring.package; (osgi.wiring.package=com.example.missing)";
        PluginReport report = PluginReport.of(List.of(new PluginReport.BundleInfo(15, "com.example.broken", "1.0.0",
                "Installed", PLUGINS + "broken.jar", true, List.of(missing))), List.of(), List.of());
        JsonNode broken = PluginReportJson.toJson(report).path("plugins").path(0);
        assertEquals(missing, broken.path("unresolved").path(0).asText());
        String out = PluginCommands.plugins(report);
        assertTrue(out.contains("Installed  unresolved: " + missing), out);
        JsonNode active = pluginNode(PluginReportJson.toJson(inventory.report()), "io.kubelix.resource-core");
        assertTrue(active.path("unresolved").isArray());
        assertEquals(0, active.path("unresolved").size());
    }

    @Test
    void pluginsFolderIsMatchedByPathNotByPrefixText() {
        Path folder = HOME.resolve("plugins");
        assertTrue(PluginInventory.inFolder(PLUGINS + "a.jar", folder));
        assertTrue(PluginInventory.inFolder("file:/opt/kubelix/plugins/a b.jar", folder));
        assertFalse(PluginInventory.inFolder("file:/opt/kubelix/plugins-old/a.jar", folder));
        assertFalse(PluginInventory.inFolder("mvn:io.kubelix/x/1", folder));
        assertFalse(PluginInventory.inFolder(PLUGINS + "a.jar", null));
    }

    private static ProvidedResource resource(String group, String resource, String kind, String provider, long serviceId,
                                             int ranking, long shadowedBy) {
        return new ProvidedResource(group, "v1", resource, kind, !resource.equals("namespaces"), provider, serviceId,
                ranking, shadowedBy);
    }

    private static PluginReport.Plugin plugin(PluginReport report, long id) {
        return report.plugins().stream().filter(p -> p.bundle().id() == id).findFirst()
                .orElseThrow(() -> new AssertionError("no bundle " + id + " in " + report));
    }

    private static List<String> names(PluginReport.Plugin p, PluginReport.Type type) {
        return p.services(type).stream().map(PluginReport.Service::name).toList();
    }

    private static JsonNode pluginNode(JsonNode doc, String symbolicName) {
        for (JsonNode p : doc.path("plugins")) {
            if (symbolicName.equals(p.path("symbolicName").asText())) {
                return p;
            }
        }
        throw new AssertionError("no " + symbolicName + " in " + doc);
    }

    private static DelegationTarget target(String name) {
        return new DelegationTarget() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public boolean handle(APIRequest request, APIResponse response) {
                return false;
            }
        };
    }

    private static ValidatingAdmissionPlugin admission(String name) {
        return new ValidatingAdmissionPlugin() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public void validate(AdmissionAttributes attributes) {
            }
        };
    }
}
