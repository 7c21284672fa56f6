package io.kubelix.itest.osgi;

import io.kubelix.distribution.OsgiBundlesDoc;
import io.kubelix.distribution.OsgiBundlesDoc.RunBundle;
import org.ops4j.pax.exam.Option;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import static org.ops4j.pax.exam.CoreOptions.bundle;
import static org.ops4j.pax.exam.CoreOptions.cleanCaches;
import static org.ops4j.pax.exam.CoreOptions.frameworkProperty;
import static org.ops4j.pax.exam.CoreOptions.frameworkStartLevel;
import static org.ops4j.pax.exam.CoreOptions.junitBundles;
import static org.ops4j.pax.exam.CoreOptions.systemProperty;

/**
 * A Felix container assembled only from what the build resolved: the bundles of
 * {@code distribution/osgi-repository/target/kubelix.bndrun}'s {@code -runbundles}, taken from the
 * repository folder its index describes, at the start levels it gives, with its
 * {@code -runproperties}. Only a port and a data directory are added, and Logback's configuration of
 * the distribution, so the log is readable. Runs in the test JVM ({@code configure()}).
 */
final class ResolvedRun {
    private ResolvedRun() {
    }

    static Option[] container(Class<?> testClass) {
        Path bndrun = Path.of(property("kubelix.itest.osgi.bndrun"));
        Path repository = Path.of(property("kubelix.itest.osgi.repository"));
        Path dataDir = KubelixContainer.workDirectory(testClass).resolve("data");
        List<Option> options = new ArrayList<>();
        try {
            Files.createDirectories(dataDir);
            Properties run = OsgiBundlesDoc.load(bndrun);
            for (String p : run.getProperty("-runproperties", "").split(",")) {
                String[] kv = p.trim().split("=", 2);
                if (kv.length == 2) {
                    options.add(frameworkProperty(kv[0].trim()).value(kv[1].trim()));
                }
            }
            List<RunBundle> bundles = OsgiBundlesDoc.runBundles(run.getProperty("-runbundles", ""),
                    OsgiBundlesDoc.jarsByName(repository));
            if (bundles.isEmpty()) {
                throw new IllegalStateException(bndrun + " has no -runbundles: was it resolved?");
            }
            for (RunBundle b : bundles) {
                boolean fragment = OsgiBundlesDoc.manifestValue(b.jar(), "Fragment-Host") != null;
                options.add(bundle(b.jar().toUri().toString()).startLevel(b.startLevel()).start(!fragment));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        options.add(frameworkProperty("kubelix.secure-port").value(Integer.toString(KubelixContainer.freePort())));
        options.add(frameworkProperty("kubelix.bind-address").value("127.0.0.1"));
        options.add(frameworkProperty("kubelix.data-dir").value(dataDir.toString()));
        String logback = System.getProperty("kubelix.itest.distribution.default") + "/etc/logback.xml";
        if (Files.isRegularFile(Path.of(logback))) {
            options.add(systemProperty("logback.configurationFile").value(logback));
        }
        options.add(junitBundles());
        options.add(cleanCaches());
        options.add(frameworkStartLevel(5));
        return options.toArray(Option[]::new);
    }

    private static String property(String key) {
        String value = System.getProperty(key);
        if (value == null || !Files.exists(Path.of(value))) {
            throw new IllegalStateException("system property " + key + " (" + value
                    + ") names no file: build distribution/osgi-repository and run the itests with mvn verify");
        }
        return value;
    }
}
