package io.kubelix.itest.osgi;

import io.kubelix.itest.osgi.ApiClient.Response;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.Configuration;
import org.ops4j.pax.exam.Option;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;

import javax.inject.Inject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * storage-sql as a bundle in a real Felix, configured for {@code kubelix.storage-backend=sqlite}
 * but started without it, so storage answers 503. Installed, it loads SQLite's native library from
 * its embedded driver, creates {@code kubelix.db} in the data directory and serves configmaps;
 * updated, its new class loader loads the native library again and reopens the same database, so
 * the objects are there with their resourceVersions; uninstalled, its maintenance thread is gone
 * and requests answer 503.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class SqliteBundleIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final String NAMESPACE = "/api/v1/namespaces/default/configmaps";

    @Inject
    private BundleContext context;

    @Configuration
    public Option[] configure() {
        return KubelixContainer.container(SqliteBundleIT.class, "sqlite");
    }

    @Test
    public void servesFromTheDatabaseFileKeepsItAcrossAnUpdateAndLeavesNoThreadWhenUninstalled() throws Exception {
        ApiClient api = new ApiClient(context);
        Poll.until(TIMEOUT, "the admin token is written", () -> {
            try {
                api.adminToken();
                return true;
            } catch (RuntimeException e) {
                return false;
            }
        });
        ApiClient.await(TIMEOUT, "503 without the storage-sql bundle", () -> api.get(NAMESPACE), r -> r.status() == 503);

        Bundle sql = context.installBundle(KubelixContainer.reactorBundleLocation("storage-sql"));
        sql.start();
        ApiClient.await(TIMEOUT, "/readyz with the sqlite check", () -> api.getWithoutCredentials("/readyz?verbose"),
                r -> r.status() == 200 && r.body().contains("[+]sqlite ok"));
        Response created = ApiClient.await(TIMEOUT, "a configmap created", () -> api.post(NAMESPACE,
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"kept\"},\"data\":{\"k\":\"v\"}}"),
                r -> r.status() == 201);
        String rv = created.json().path("metadata").path("resourceVersion").asText();
        Path db = Path.of(context.getProperty("kubelix.data-dir"), "kubelix.db");
        assertTrue(db + " exists", Files.isRegularFile(db));

        sql.update();
        Response kept = ApiClient.await(TIMEOUT, "the configmap after the update", () -> api.get(NAMESPACE + "/kept"),
                r -> r.status() == 200);
        assertEquals("v", kept.json().path("data").path("k").asText());
        assertEquals(rv, kept.json().path("metadata").path("resourceVersion").asText());
        Response another = ApiClient.await(TIMEOUT, "a write after the update", () -> api.post(NAMESPACE,
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"after\"}}"), r -> r.status() == 201);
        assertTrue(another.toString(), Long.parseLong(another.json().path("metadata").path("resourceVersion").asText())
                > Long.parseLong(rv));

        sql.uninstall();
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!sqliteThreads().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertEquals("no storage thread after uninstall", List.of(), sqliteThreads());
        Response unavailable = ApiClient.await(TIMEOUT, "503 after uninstall", () -> api.get(NAMESPACE),
                r -> r.status() == 503);
        assertEquals("Status", unavailable.json().path("kind").asText());
    }

    private static List<String> sqliteThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(n -> n.startsWith("kubelix-sqlite")).sorted().toList();
    }
}
