package io.kubelix.itest.e2e;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Kubelix in a stock Karaf 4.4, installed from its features repository as the docs say: the
 * repository added in {@code etc/org.apache.karaf.features.cfg}, {@code feature:install kubelix-core
 * kubelix-resource-apps} through {@code bin/client}. kubectl then sees namespace default and
 * creates a deployment; after a restart of Karaf the same data directory (CA, tokens, SQLite) is
 * served again with the deployment; {@code feature:uninstall kubelix-resource-apps} takes apps/v1
 * out of discovery while core/v1 keeps serving.
 */
class KarafIT {
    private static final Duration SERVED_TIMEOUT = Duration.ofSeconds(120);
    private static final String FEATURES = "mvn:io.kubelix/distribution/" + KubelixServer.property("kubelix.itest.version")
            + "/xml/features";

    private static KarafInstance karaf;

    @AfterAll
    static void stop() throws InterruptedException {
        if (karaf != null) {
            karaf.close();
        }
    }

    @Test
    void featuresServeKubectlAcrossARestartAndUninstallLeavesTheRestServing() throws Exception {
        Path work = KubelixServer.workDirectory("karaf");
        karaf = KarafInstance.prepare(work, FEATURES);

        // 1. Start Karaf and install the features.
        karaf.start();
        String repositories = karaf.client("feature:repo-list");
        assertTrue(repositories.contains("kubelix-" + KubelixServer.property("kubelix.itest.version")), repositories);
        karaf.client("feature:install kubelix-core kubelix-resource-apps");
        Kubectl kubectl = new Kubectl(System.getProperty("kubelix.itest.kubectl", "kubectl"), karaf.kubeconfig(),
                work.resolve("home"));
        awaitServed(kubectl, "deployments");

        // 2. kubectl against Kubelix in Karaf.
        assertEquals("namespace/default", kubectl.ok("get", "namespace", "default", "-o", "name").stdout().trim());
        assertEquals("deployment.apps/web created",
                kubectl.ok("create", "deployment", "web", "--image=nginx").stdout().trim());
        assertEquals("deployment.apps/web", kubectl.ok("get", "deployment", "web", "-o", "name").stdout().trim());

        // 3. A restart serves the same data directory again: the CA and keys it wrote are read back.
        karaf.stop();
        karaf.start();
        awaitServed(kubectl, "deployments");
        assertEquals("deployment.apps/web", kubectl.ok("get", "deployment", "web", "-o", "name").stdout().trim());
        String log = Files.readString(karaf.dataDirectory().resolve("log").resolve("karaf.log"));
        assertTrue(log.contains("Reusing CA"), karaf::log);
        assertFalse(log.contains("is not the key of"), karaf::log);

        // 4. Uninstalling the apps feature takes deployments out of discovery; the rest keeps serving.
        karaf.client("feature:uninstall kubelix-resource-apps");
        await("apps/v1 to leave discovery", () -> kubectl.run("api-resources", "--api-group=apps", "-o", "name"),
                r -> r.exitCode() == 0 && !r.stdout().contains("deployments"));
        assertEquals("namespace/default", kubectl.ok("get", "namespace", "default", "-o", "name").stdout().trim());
        Kubectl.Result gone = kubectl.run("get", "deployments");
        assertTrue(gone.exitCode() != 0, gone::toString);
    }

    /** Waits for the admin kubeconfig and for kubectl to serve namespace default and {@code resources}. */
    private static void awaitServed(Kubectl kubectl, String resources) throws Exception {
        await("kubectl to get namespace default", () -> Files.isRegularFile(karaf.kubeconfig())
                ? kubectl.run("get", "namespace", "default") : null, r -> r != null && r.exitCode() == 0);
        await("kubectl get " + resources, () -> kubectl.run("get", resources), r -> r.exitCode() == 0);
    }

    private static <T> T await(String what, Callable<T> attempt, Predicate<T> done) throws Exception {
        long deadline = System.nanoTime() + SERVED_TIMEOUT.toNanos();
        T last;
        do {
            if (!karaf.isAlive()) {
                throw new AssertionError("Karaf exited while waiting for " + what + "\n" + karaf.log());
            }
            last = attempt.call();
            if (done.test(last)) {
                return last;
            }
            Thread.sleep(500);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("timed out after " + SERVED_TIMEOUT.toSeconds() + "s waiting for " + what + "; last: "
                + last + "\n" + karaf.log());
    }
}
