package io.kubelix.distribution;

import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.Constants;
import org.osgi.framework.launch.Framework;
import org.osgi.framework.launch.FrameworkFactory;
import org.osgi.framework.wiring.FrameworkWiring;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.stream.Stream;

/**
 * Checks, at build time, that the bundles of a distribution ({@code system/} and {@code plugins/})
 * resolve together in a real Felix framework: every bundle is installed, nothing is started, the
 * framework resolves them all, and each bundle that does not resolve is reported with the
 * requirement nothing provides. A distribution that passes starts without resolution errors.
 *
 * <p>Usage: {@code ResolveCheck <distribution directory> [--plugins a,b,...] [--extra-plugins x.jar,...]}:
 * with {@code --plugins}, only the plugins of those names stay in {@code plugins/} (a custom
 * distribution); {@code --extra-plugins} copies further bundles in. Exits 1 when a bundle does
 * not resolve, 2 on wrong arguments.
 */
public final class ResolveCheck {

    private ResolveCheck() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 0 || args.length % 2 == 0) {
            usage("expected a distribution directory and option pairs");
        }
        Path dir = Path.of(args[0]);
        try {
            select(dir, args);
        } catch (IllegalArgumentException e) {
            System.err.println("Custom distribution: " + e.getMessage());
            System.exit(1);
        }
        List<String> problems = check(dir, System.out);
        if (!problems.isEmpty()) {
            System.err.println("The distribution's bundles do not resolve:");
            problems.forEach(p -> System.err.println("  " + p));
            System.err.println("Add the bundles that provide these requirements to the distribution, or leave out the "
                    + "plugins that need them.");
            System.exit(1);
        }
    }

    private static void select(Path dir, String[] args) throws IOException {
        for (int i = 1; i < args.length; i += 2) {
            String value = args[i + 1].trim();
            switch (args[i]) {
                case "--plugins" -> {
                    if (!value.isEmpty()) {
                        PluginSelection.keepOnly(dir.resolve("plugins"), List.of(value.split("\\s*,\\s*")), System.out);
                    }
                }
                case "--extra-plugins" -> {
                    if (!value.isEmpty()) {
                        PluginSelection.add(dir.resolve("plugins"), List.of(value.split("\\s*,\\s*")), System.out);
                    }
                }
                default -> usage("unknown option " + args[i]);
            }
        }
    }

    private static void usage(String why) {
        System.err.println("ResolveCheck: " + why);
        System.err.println("usage: ResolveCheck <distribution directory> [--plugins a,b,...] [--extra-plugins x.jar,...]");
        System.exit(2);
    }

    /** The bundles that do not resolve, each with Felix's explanation; empty when all resolve. */
    static List<String> check(Path distribution, PrintStream out) throws Exception {
        List<Path> jars = new ArrayList<>(jars(distribution.resolve("system")));
        jars.addAll(jars(distribution.resolve("plugins")));
        if (jars.isEmpty()) {
            throw new IllegalArgumentException(distribution + " has no bundles in system/ or plugins/");
        }
        Path storage = Files.createTempDirectory("kubelix-resolve-check");
        Map<String, String> config = new HashMap<>();
        config.put(Constants.FRAMEWORK_STORAGE, storage.toString());
        config.put(Constants.FRAMEWORK_STORAGE_CLEAN, Constants.FRAMEWORK_STORAGE_CLEAN_ONFIRSTINIT);
        config.put("felix.log.level", "0");
        FrameworkFactory factory = ServiceLoader.load(FrameworkFactory.class).iterator().next();
        Framework framework = factory.newFramework(config);
        // Started, so asking an unresolved bundle to start yields Felix's resolution error; nothing is
        // started otherwise, as no bundle is marked for start.
        framework.start();
        try {
            BundleContext ctx = framework.getBundleContext();
            List<Bundle> bundles = new ArrayList<>();
            for (Path jar : jars) {
                bundles.add(ctx.installBundle(jar.toUri().toString()));
            }
            framework.adapt(FrameworkWiring.class).resolveBundles(bundles);
            List<String> problems = new ArrayList<>();
            for (Bundle b : bundles) {
                if (b.getState() == Bundle.INSTALLED) {
                    problems.add(distribution.relativize(Path.of(b.getLocation().substring("file:".length())))
                            + ": " + reason(b));
                }
            }
            out.println("Resolve check: " + (bundles.size() - problems.size()) + " of " + bundles.size()
                    + " bundles of " + distribution.getFileName() + " resolve");
            return problems;
        } finally {
            framework.stop();
            framework.waitForStop(10_000);
            deleteTree(storage);
        }
    }

    /** Felix explains an unresolved bundle when asked to start it; it does not start, since it cannot resolve. */
    private static String reason(Bundle b) {
        try {
            b.start(Bundle.START_TRANSIENT);
            b.stop();
            return "resolved only when started";
        } catch (BundleException e) {
            return e.getMessage();
        }
    }

    private static List<Path> jars(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".jar")).sorted().toList();
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
