package io.kubelix.itest.e2e;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.Predicate;

/**
 * What every kubectl suite shares: one copy of the built distribution for the whole test class,
 * started before its tests and stopped after them, and a kubectl pointed at it. The server is
 * started, then namespace default and the suite's resources must answer {@code kubectl get}
 * ({@code /readyz} can answer before every plugin is in), then {@link #afterStart()} runs.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class KubectlSuite {
    static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    static final Duration POLL_TIMEOUT = Duration.ofSeconds(30);
    static final ObjectMapper JSON = new ObjectMapper();
    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private final String name;
    private final String resources;
    KubelixServer server;
    Kubectl kubectl;
    Path work;

    /**
     * @param name      the work directory's name
     * @param resources what {@code kubectl get} must answer before the first test (comma-separated),
     *                  or null for namespace default only
     */
    KubectlSuite(String name, String resources) {
        this.name = name;
        this.resources = resources;
    }

    @BeforeAll
    void startServer() throws Exception {
        work = KubelixServer.workDirectory(name);
        server = KubelixServer.startDistribution(work, READY_TIMEOUT, flags());
        kubectl = server.kubectl(work);
        server.awaitServed(kubectl, READY_TIMEOUT, resources);
        afterStart();
    }

    /** More {@code bin/kubelix} flags for the suite's server; the files they name may be written into {@link #work} here. */
    String[] flags() throws Exception {
        return new String[0];
    }

    /** What else a suite waits for, or sets up, before its first test. */
    void afterStart() throws Exception {
    }

    @AfterAll
    void stopServer() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    /** Writes {@code content} (UTF-8) to {@code name} in the work directory, for {@code kubectl -f}. */
    Path write(String name, String content) throws java.io.IOException {
        return java.nio.file.Files.writeString(work.resolve(name), content, java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Repeats {@code attempt} until {@code done} accepts its result, for at most {@link #POLL_TIMEOUT}. */
    <T> T await(String what, Callable<T> attempt, Predicate<T> done) throws Exception {
        return server.await(what, POLL_TIMEOUT, attempt, done);
    }
}
