package io.kubelix.junit.impl;

import io.kubelix.junit.KubelixServer;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.security.SecureRandom;
import java.util.Locale;

/**
 * The namespace of one test: named after the test ({@code createsAConfigMap} becomes
 * {@code creates-a-config-map-x7k2p}), created when first asked for and deleted with the test's
 * context. Deletion is only started: the namespace controller empties the namespace afterwards,
 * as in a cluster, and the next test has its own namespace anyway.
 */
public final class NamespaceResource implements ExtensionContext.Store.CloseableResource {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String SUFFIX_CHARS = "bcdfghjklmnpqrstvwxz2456789";
    private static final int PREFIX_LENGTH = 40;

    private final KubelixServer server;
    private final String name;

    private NamespaceResource(KubelixServer server, String name) {
        this.server = server;
        this.name = name;
    }

    /** Creates a namespace named after {@code testName}. */
    public static NamespaceResource create(KubelixServer server, String testName) {
        String name = prefix(testName) + "-" + suffix();
        server.createNamespace(name);
        return new NamespaceResource(server, name);
    }

    public String name() {
        return name;
    }

    @Override
    public void close() {
        server.deleteNamespace(name);
    }

    /** A DNS label's start: lower case, words split by '-', starting with a letter, at most 40 characters. */
    static String prefix(String testName) {
        String kebab = testName.replaceAll("([a-z0-9])([A-Z])", "$1-$2").replaceAll("([A-Z])([A-Z][a-z])", "$1-$2")
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^a-z0-9]+", "-").replaceAll("^[^a-z]+", "");
        if (kebab.length() > PREFIX_LENGTH) {
            kebab = kebab.substring(0, PREFIX_LENGTH);
        }
        kebab = kebab.replaceAll("-+$", "");
        return kebab.isEmpty() ? "test" : kebab;
    }

    private static String suffix() {
        StringBuilder suffix = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            suffix.append(SUFFIX_CHARS.charAt(RANDOM.nextInt(SUFFIX_CHARS.length())));
        }
        return suffix.toString();
    }
}
