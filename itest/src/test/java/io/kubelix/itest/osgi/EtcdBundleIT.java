package io.kubelix.itest.osgi;

import io.kubelix.itest.osgi.ApiClient.Response;
import org.junit.AfterClass;
import org.junit.Assume;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.Configuration;
import org.ops4j.pax.exam.Option;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.options.FrameworkPropertyOption;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;

import javax.inject.Inject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.ops4j.pax.exam.CoreOptions.frameworkProperty;

/**
 * storage-etcd as a bundle in a real Felix: the container is configured for
 * {@code kubelix.storage-backend=etcd3} with the etcd framework properties of a real etcd (started
 * by {@link #configure()} in the test JVM on free loopback ports) but without the storage-etcd
 * bundle, so storage answers 503. The test installs the bundle: {@code /readyz?verbose} shows
 * {@code [+]etcd ok} and configmaps are created, read, listed and deleted; then it uninstalls the
 * bundle: no gRPC, Netty, Vert.x or etcd thread remains and requests answer 503 with a Status.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class EtcdBundleIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final String ETCD_PID = "kubelix.itest.etcd.pid";
    private static final String NAMESPACE = "/api/v1/namespaces/default/configmaps";
    /** Thread names that belong to the etcd client stack (jetcd, gRPC, Netty, Vert.x) or the backend. */
    private static final List<String> CLIENT_THREADS = List.of("grpc", "vert.x", "etcd", "nioeventloop");

    @Inject
    private BundleContext context;

    /** Runs in the test JVM: starts etcd and points the container at it. */
    @Configuration
    public Option[] configure() throws Exception {
        List<Option> options = new ArrayList<>();
        for (Option o : KubelixContainer.container(EtcdBundleIT.class)) {
            if (!(o instanceof FrameworkPropertyOption p && p.getKey().equals("kubelix.storage-backend"))) {
                options.add(o);
            }
        }
        options.add(frameworkProperty("kubelix.storage-backend").value("etcd3"));
        if (io.kubelix.itest.etcd.EtcdProcess.findBinary() == null) {
            options.add(frameworkProperty(ETCD_PID).value("none"));
        } else {
            Path dir = Path.of(System.getProperty("kubelix.itest.work", "target/itest-work"), "pax",
                    "EtcdBundleIT-etcd-" + System.currentTimeMillis()).toAbsolutePath();
            io.kubelix.itest.etcd.EtcdProcess etcd = io.kubelix.itest.etcd.EtcdProcess.start(dir);
            options.add(frameworkProperty("kubelix.etcd-servers").value(etcd.endpoint()));
            options.add(frameworkProperty("kubelix.etcd-prefix").value("/registry-" + UUID.randomUUID()));
            options.add(frameworkProperty("kubelix.etcd-compaction-interval").value("0"));
            options.add(frameworkProperty(ETCD_PID).value(Long.toString(etcd.pid())));
        }
        return options.toArray(new Option[0]);
    }

    /** Inside the container: etcd is stopped by its PID (the test JVM's shutdown hook is the fallback). */
    @AfterClass
    public static void stopEtcd() {
        String pid = System.getProperty(ETCD_PID);
        if (pid != null && !pid.equals("none")) {
            ProcessHandle.of(Long.parseLong(pid)).ifPresent(ProcessHandle::destroy);
        }
    }

    @Test
    public void installedTheBundleServesFromEtcdAndUninstalledLeavesNoThreadAndAnswers503() throws Exception {
        String pid = context.getProperty(ETCD_PID);
        System.setProperty(ETCD_PID, pid);
        Assume.assumeFalse("etcd is not installed (apt-get install etcd-server; .ci/run does)", "none".equals(pid));
        ApiClient api = new ApiClient(context);
        Poll.until(TIMEOUT, "the admin token is written", () -> {
            try {
                api.adminToken();
                return true;
            } catch (RuntimeException e) {
                return false;
            }
        });

        // configured for etcd3, but no bundle provides it yet
        Response missing = ApiClient.await(TIMEOUT, "503 without the etcd bundle", () -> api.get(NAMESPACE),
                r -> r.status() == 503);
        assertEquals("Status", missing.json().path("kind").asText());

        Bundle etcd = context.installBundle(KubelixContainer.reactorBundleLocation("storage-etcd"));
        etcd.start();
        Response ready = ApiClient.await(TIMEOUT, "/readyz with the etcd check", () -> api.getWithoutCredentials("/readyz?verbose"),
                r -> r.status() == 200 && r.body().contains("[+]etcd ok"));
        assertTrue(ready.body(), ready.body().contains("readyz check passed"));
        assertTrue("client threads run while in use: " + clientThreads(), !clientThreads().isEmpty());

        // CRUD on etcd
        Response created = ApiClient.await(TIMEOUT, "a configmap created", () -> api.post(NAMESPACE,
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"on-etcd\"},\"data\":{\"k\":\"v\"}}"),
                r -> r.status() == 201);
        String rv = created.json().path("metadata").path("resourceVersion").asText();
        Response got = api.get(NAMESPACE + "/on-etcd");
        assertEquals(got.toString(), 200, got.status());
        assertEquals("v", got.json().path("data").path("k").asText());
        assertEquals(rv, got.json().path("metadata").path("resourceVersion").asText());
        Response list = api.get(NAMESPACE);
        assertEquals(list.toString(), 200, list.status());
        // The namespace's kube-root-ca.crt is listed too.
        assertEquals(list.toString(), 1, java.util.stream.StreamSupport.stream(list.json().path("items").spliterator(), false)
                .filter(i -> i.path("metadata").path("name").asText().equals("on-etcd")).count());
        Response duplicate = api.post(NAMESPACE,
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"on-etcd\"}}");
        assertEquals(duplicate.toString(), 409, duplicate.status());
        assertEquals("AlreadyExists", duplicate.statusReason());
        Response deleted = api.delete(NAMESPACE + "/on-etcd");
        assertEquals(deleted.toString(), 200, deleted.status());
        Response gone = api.get(NAMESPACE + "/on-etcd");
        assertEquals(gone.toString(), 404, gone.status());

        etcd.uninstall();
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        List<String> left = clientThreads();
        while (!left.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(100);
            left = clientThreads();
        }
        assertEquals("no etcd client thread after uninstall", List.of(), left);
        Response unavailable = ApiClient.await(TIMEOUT, "503 after uninstall", () -> api.get(NAMESPACE),
                r -> r.status() == 503);
        assertEquals("Status", unavailable.json().path("kind").asText());
        assertEquals("Failure", unavailable.json().path("status").asText());
        assertEquals(503, unavailable.json().path("code").asInt());
        Response readyz = api.getWithoutCredentials("/readyz?verbose");
        assertTrue(readyz.toString(), !readyz.body().contains("[+]etcd ok"));
    }

    private static List<String> clientThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(Thread::isAlive)
                .map(Thread::getName)
                .filter(n -> !n.startsWith("fileinstall-")) // named after the deploy folder, which names this class
                .filter(n -> CLIENT_THREADS.stream().anyMatch(n.toLowerCase(Locale.ROOT)::contains))
                .sorted()
                .toList();
    }
}
