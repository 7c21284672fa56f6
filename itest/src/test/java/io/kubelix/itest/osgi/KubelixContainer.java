package io.kubelix.itest.osgi;

import org.ops4j.pax.exam.Option;
import org.ops4j.pax.exam.options.FrameworkPropertyOption;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.ops4j.pax.exam.CoreOptions.bundle;
import static org.ops4j.pax.exam.CoreOptions.cleanCaches;
import static org.ops4j.pax.exam.CoreOptions.composite;
import static org.ops4j.pax.exam.CoreOptions.frameworkProperty;
import static org.ops4j.pax.exam.CoreOptions.frameworkStartLevel;
import static org.ops4j.pax.exam.CoreOptions.junitBundles;
import static org.ops4j.pax.exam.CoreOptions.mavenBundle;
import static org.ops4j.pax.exam.CoreOptions.options;

/**
 * The Felix container of the Pax Exam tests: the distribution's bundle set (etc/config.properties)
 * at the distribution's start levels, and the four plugins of its plugins/ folder installed and
 * started as ordinary bundles at start level 4 instead of by FileInstall.
 * <pre>
 * 1  SPI Fly, ASM, slf4j-api, slf4j-simple   (before anything logs)
 * 2  OSGi services, Jetty, Jackson, Bouncy Castle, protobuf, core-api, core-runtime, SCR, Gogo
 * 3  FileInstall (watching an empty folder)
 * 4  storage-memory, resource-core, authn-token, authz-authenticated
 * 5  Pax Exam's probe (the test class)
 * </pre>
 * Runs in the test JVM ({@code configure()}), never inside the container.
 */
final class KubelixContainer {
    static final String PLUGIN_STORAGE_MEMORY = "storage-memory";
    static final String PLUGIN_RESOURCE_CORE = "resource-core";
    static final String PLUGIN_AUTHN_TOKEN = "authn-token";
    static final String PLUGIN_AUTHZ_AUTHENTICATED = "authz-authenticated";
    static final String SAMPLE_RESOURCE = "sample-resource";

    private KubelixContainer() {
    }

    /** The container for one test class, with {@code storageBackend} ({@code --storage-backend}) instead of memory. */
    static Option[] container(Class<?> testClass, String storageBackend) {
        List<Option> options = new ArrayList<>();
        for (Option o : container(testClass)) {
            if (!(o instanceof FrameworkPropertyOption p && p.getKey().equals("kubelix.storage-backend"))) {
                options.add(o);
            }
        }
        options.add(frameworkProperty("kubelix.storage-backend").value(storageBackend));
        return options.toArray(new Option[0]);
    }

    /** The container for one test class, with its own port and data directory under target/. */
    static Option[] container(Class<?> testClass) {
        Path work = workDirectory(testClass);
        Path dataDir = work.resolve("data");
        Path deploy = work.resolve("deploy");
        try {
            Files.createDirectories(dataDir);
            Files.createDirectories(deploy);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return options(
                // what bin/kubelix sets from its flags
                frameworkProperty("kubelix.secure-port").value(Integer.toString(freePort())),
                frameworkProperty("kubelix.bind-address").value("127.0.0.1"),
                frameworkProperty("kubelix.data-dir").value(dataDir.toString()),
                frameworkProperty("kubelix.storage-backend").value("memory"),
                // The container's authorizer is authz-authenticated: AlwaysAllow, not the default RBAC.
                frameworkProperty("kubelix.authorization-mode").value("AlwaysAllow"),
                frameworkProperty("kubelix.token-auth-file").value(dataDir.resolve("tokens.csv").toString()),
                // the rest of etc/config.properties that matters without a kubelix.home
                frameworkProperty("gosh.args").value("--nointeractive"),
                frameworkProperty("felix.fileinstall.dir").value(deploy.toString()),
                frameworkProperty("felix.fileinstall.poll").value("1000"),
                frameworkProperty("felix.fileinstall.noInitialDelay").value("true"),
                frameworkProperty("felix.fileinstall.start.level").value("4"),
                frameworkProperty("felix.fileinstall.tmpdir").value(work.resolve("fileinstall-tmp").toString()),
                frameworkProperty("felix.fileinstall.enableConfigSave").value("false"),
                frameworkProperty("felix.fileinstall.log.level").value("1"),
                systemBundles(),
                plugin(PLUGIN_STORAGE_MEMORY),
                plugin(PLUGIN_RESOURCE_CORE),
                plugin(PLUGIN_AUTHN_TOKEN),
                plugin(PLUGIN_AUTHZ_AUTHENTICATED),
                junitBundles(),
                cleanCaches(),
                frameworkStartLevel(5));
    }

    private static Option systemBundles() {
        return composite(
                // 1: the service loader mediator and SLF4J, before anything logs
                mavenBundle("org.apache.aries.spifly", "org.apache.aries.spifly.dynamic.bundle").versionAsInProject().startLevel(1),
                mavenBundle("org.ow2.asm", "asm").versionAsInProject().startLevel(1),
                mavenBundle("org.ow2.asm", "asm-tree").versionAsInProject().startLevel(1),
                mavenBundle("org.ow2.asm", "asm-analysis").versionAsInProject().startLevel(1),
                mavenBundle("org.ow2.asm", "asm-commons").versionAsInProject().startLevel(1),
                mavenBundle("org.ow2.asm", "asm-util").versionAsInProject().startLevel(1),
                mavenBundle("org.slf4j", "slf4j-api").versionAsInProject().startLevel(1),
                mavenBundle("org.slf4j", "slf4j-simple").versionAsInProject().startLevel(1),
                // 2: OSGi services, libraries, the Kubelix core
                mavenBundle("org.osgi", "org.osgi.util.function").versionAsInProject().startLevel(2),
                mavenBundle("org.osgi", "org.osgi.util.promise").versionAsInProject().startLevel(2),
                mavenBundle("org.osgi", "org.osgi.service.component").versionAsInProject().startLevel(2),
                mavenBundle("org.apache.felix", "org.apache.felix.configadmin").versionAsInProject().startLevel(2),
                mavenBundle("org.eclipse.jetty", "jetty-util").versionAsInProject().startLevel(2),
                mavenBundle("org.eclipse.jetty", "jetty-io").versionAsInProject().startLevel(2),
                mavenBundle("org.eclipse.jetty", "jetty-http").versionAsInProject().startLevel(2),
                mavenBundle("org.eclipse.jetty", "jetty-server").versionAsInProject().startLevel(2),
                mavenBundle("org.eclipse.jetty", "jetty-alpn-server").versionAsInProject().startLevel(2),
                mavenBundle("org.eclipse.jetty", "jetty-alpn-java-server").versionAsInProject().startLevel(2),
                mavenBundle("org.conscrypt", "conscrypt-openjdk-uber").versionAsInProject().startLevel(2),
                mavenBundle("org.eclipse.jetty", "jetty-alpn-conscrypt-server").versionAsInProject().startLevel(2),
                mavenBundle("org.eclipse.jetty.http2", "jetty-http2-hpack").versionAsInProject().startLevel(2),
                mavenBundle("org.eclipse.jetty.http2", "jetty-http2-common").versionAsInProject().startLevel(2),
                mavenBundle("org.eclipse.jetty.http2", "jetty-http2-server").versionAsInProject().startLevel(2),
                mavenBundle("org.eclipse.jetty.websocket", "jetty-websocket-core-common").versionAsInProject().startLevel(2),
                mavenBundle("org.eclipse.jetty.websocket", "jetty-websocket-core-server").versionAsInProject().startLevel(2),
                mavenBundle("com.fasterxml.jackson.core", "jackson-annotations").versionAsInProject().startLevel(2),
                mavenBundle("com.fasterxml.jackson.core", "jackson-core").versionAsInProject().startLevel(2),
                mavenBundle("com.fasterxml.jackson.core", "jackson-databind").versionAsInProject().startLevel(2),
                mavenBundle("org.yaml", "snakeyaml").versionAsInProject().startLevel(2),
                mavenBundle("com.fasterxml.jackson.dataformat", "jackson-dataformat-yaml").versionAsInProject().startLevel(2),
                mavenBundle("org.bouncycastle", "bcprov-jdk18on").versionAsInProject().startLevel(2),
                mavenBundle("org.bouncycastle", "bcutil-jdk18on").versionAsInProject().startLevel(2),
                mavenBundle("org.bouncycastle", "bcpkix-jdk18on").versionAsInProject().startLevel(2),
                mavenBundle("com.google.protobuf", "protobuf-java").versionAsInProject().startLevel(2),
                mavenBundle("io.kubernetes", "client-java-proto").versionAsInProject().startLevel(2),
                reactorBundle("core-api").startLevel(2),
                reactorBundle("core-runtime").startLevel(2),
                mavenBundle("org.apache.felix", "org.apache.felix.scr").versionAsInProject().startLevel(2),
                mavenBundle("org.apache.felix", "org.apache.felix.gogo.runtime").versionAsInProject().startLevel(2),
                mavenBundle("org.apache.felix", "org.apache.felix.gogo.command").versionAsInProject().startLevel(2),
                mavenBundle("org.apache.felix", "org.apache.felix.gogo.shell").versionAsInProject().startLevel(2),
                // 3: the hot deployer
                mavenBundle("org.apache.felix", "org.apache.felix.fileinstall").versionAsInProject().startLevel(3));
    }

    private static Option plugin(String name) {
        return reactorBundle(name).startLevel(4);
    }

    private static org.ops4j.pax.exam.options.UrlProvisionOption reactorBundle(String name) {
        return bundle(reactorBundleLocation(name));
    }

    /** {@code file:} URL of one of the reactor's bundle jars, as failsafe passes them ({@code kubelix.itest.bundle.<name>}). */
    static String reactorBundleLocation(String name) {
        String key = "kubelix.itest.bundle." + name;
        String path = System.getProperty(key);
        if (path == null) {
            throw new IllegalStateException("system property " + key + " is not set: run the itests with mvn verify");
        }
        Path jar = Path.of(path);
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(key + "=" + path + " does not exist: build the module first");
        }
        return jar.toUri().toString();
    }

    static Path workDirectory(Class<?> testClass) {
        String work = System.getProperty("kubelix.itest.work", "target/itest-work");
        return Path.of(work, "pax", testClass.getSimpleName() + "-" + System.currentTimeMillis()).toAbsolutePath();
    }

    static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
