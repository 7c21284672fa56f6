package io.kubelix.itest.e2e;

import io.kubelix.itest.e2e.Kubectl.Result;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The three distributions the build makes: the default one (every Kubelix plugin), the minimal one
 * (the default storage, SQLite, the core group without apps/v1 or the other API groups, token authentication and the
 * authenticated-user authorizer) and the full one (every plugin and the example plugins; the rest of the e2e
 * suite runs against it). Each starts, has exactly its plugins, and serves kubectl what those plugins provide.
 */
class DistributionsIT {
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);

    /** The API group plugins of the default and full distributions. */
    private static final String GROUP_PLUGINS = "aggregator apiextensions resource-admissionregistration resource-apps resource-authentication resource-authorization resource-autoscaling "
            + "resource-batch resource-certificates resource-coordination resource-core resource-discovery resource-events "
            + "resource-flowcontrol resource-networking resource-node resource-policy resource-rbac resource-scheduling resource-storage";

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', value = {
            "default; authn-oidc authn-requestheader authn-serviceaccount authn-token authn-x509 authz-authenticated authz-rbac authz-webhook admission-webhook admission-policy admission-podsecurity " + GROUP_PLUGINS + " storage-etcd storage-memory storage-sql; false; true",
            "minimal; authn-token authz-rbac resource-core resource-rbac storage-sql; false; false",
            "full; admission-deny-label authn-oidc authn-requestheader authn-serviceaccount authn-token authn-x509 authz-authenticated authz-rbac authz-webhook admission-webhook admission-policy admission-podsecurity " + GROUP_PLUGINS
                    + " storage-etcd storage-memory storage-sql widget-resource; true; true"})
    void startsWithItsPluginsAndServesKubectl(String name, String plugins, boolean examples, boolean apps) throws Exception {
        Path distribution = Path.of(KubelixServer.property("kubelix.itest.distribution." + name));
        Path work = Path.of(System.getProperty("kubelix.itest.work", "target/itest-work"), "e2e",
                "distribution-" + name + "-" + System.currentTimeMillis()).toAbsolutePath();
        Files.createDirectories(work.resolve("home"));
        try (KubelixServer server = KubelixServer.start(distribution, work, READY_TIMEOUT)) {
            assertEquals(new TreeSet<>(Arrays.asList(plugins.split(" "))), pluginNames(server.plugins()));
            Kubectl kubectl = new Kubectl(System.getProperty("kubelix.itest.kubectl", "kubectl"), server.kubeconfig(),
                    work.resolve("home"));

            Result ns = server.await("the default namespace", READY_TIMEOUT, () -> kubectl.run("get", "ns", "default"),
                    r -> r.exitCode() == 0);
            assertTrue(ns.stdout().contains("Active"), ns::toString);
            kubectl.ok("create", "configmap", "hello", "--from-literal=greeting=hello");
            assertEquals("hello", kubectl.ok("get", "cm", "hello", "-o", "jsonpath={.data.greeting}").stdout());

            List<String> resources = kubectl.ok("api-resources", "-o", "name").stdout().lines().toList();
            assertTrue(resources.containsAll(List.of("configmaps", "namespaces", "secrets", "events",
                    "clusterroles.rbac.authorization.k8s.io")), "every distribution authorizes with RBAC: " + resources);
            assertEquals(examples, resources.contains("widgets.sample.kubelix.io"), resources::toString);
            assertEquals(apps, resources.contains("deployments.apps"), resources::toString);
            for (String groupResource : List.of("horizontalpodautoscalers.autoscaling", "priorityclasses.scheduling.k8s.io",
                    "storageclasses.storage.k8s.io", "events.events.k8s.io", "jobs.batch", "leases.coordination.k8s.io",
                    "endpointslices.discovery.k8s.io", "ingresses.networking.k8s.io", "poddisruptionbudgets.policy",
                    "validatingwebhookconfigurations.admissionregistration.k8s.io", "apiservices.apiregistration.k8s.io")) {
                assertEquals(apps, resources.contains(groupResource), groupResource + " in " + resources);
            }
            if (examples) {
                // the example admission plugin is active in the full distribution
                Result labelled = kubectl.run("label", "cm", "hello", "kubelix.io/forbidden=true");
                assertNotEquals(0, labelled.exitCode(), labelled::toString);
                assertTrue(labelled.stderr().contains("Forbidden"), labelled::toString);
            }
        }
    }

    /** The plugin names in {@code plugins/}: each jar's name without its version. */
    private static Set<String> pluginNames(Path plugins) throws Exception {
        try (Stream<Path> jars = Files.list(plugins)) {
            return jars.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".jar"))
                    .map(n -> n.replaceFirst("-\\d.*\\.jar$", ""))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }
}
