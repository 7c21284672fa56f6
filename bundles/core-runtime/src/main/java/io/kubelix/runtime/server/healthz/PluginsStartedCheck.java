package io.kubelix.runtime.server.healthz;

import io.kubelix.api.server.HealthChecker;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The {@code poststarthook/plugins-started} readiness check: the server is not ready until every
 * plugin jar that was in {@code plugins/} at start-up is installed and ACTIVE, so clients never
 * meet a server whose authenticator or resources are still arriving. Once passed it stays passed:
 * plugins removed later are removed on purpose.
 */
@Component(service = HealthChecker.class, property = HealthChecker.ENDPOINTS_PROPERTY + "=readyz")
public final class PluginsStartedCheck implements HealthChecker {
    private static final Logger LOG = LoggerFactory.getLogger(PluginsStartedCheck.class);

    private final BundleContext context;
    private final List<Path> expected;
    private volatile boolean passed;

    @Activate
    public PluginsStartedCheck(BundleContext context) {
        this.context = context;
        String home = context.getProperty("kubelix.home");
        this.expected = home == null ? List.of() : jars(Path.of(home, "plugins"));
    }

    @Override
    public String name() {
        return "poststarthook/plugins-started";
    }

    @Override
    public void check() {
        if (passed) {
            return;
        }
        List<String> waiting = new ArrayList<>();
        for (Path jar : expected) {
            Bundle b = context.getBundle(jar.toUri().toString());
            if (b == null) {
                b = context.getBundle("file:" + jar);
            }
            if (b == null || b.getState() != Bundle.ACTIVE) {
                waiting.add(jar.getFileName().toString());
            }
        }
        if (!waiting.isEmpty()) {
            throw new IllegalStateException("plugins not started yet: " + String.join(", ", waiting));
        }
        passed = true;
        LOG.info("all {} plugins present at start-up are active", expected.size());
    }

    private static List<Path> jars(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".jar")).map(Path::toAbsolutePath).sorted().toList();
        } catch (IOException e) {
            LOG.warn("cannot list {}: {}", dir, e.toString());
            return List.of();
        }
    }
}
