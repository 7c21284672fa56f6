package io.kubelix.runtime.server;

import java.security.Provider;

/**
 * Which JSSE provider serves TLS ({@code --tls-provider}): {@code conscrypt} (BoringSSL through the
 * Conscrypt bundle, which encrypts with a fraction of the JDK's CPU), {@code jdk} (the JDK's own),
 * or {@code auto}, the default: Conscrypt when its bundle is installed and its native library
 * loads on this platform, else the JDK's.
 *
 * <p>Conscrypt's provider is used as an object, never registered in {@link java.security.Security}
 * by name: a provider registered there outlives the bundle that made it, and a name lookup after
 * the Conscrypt bundle is refreshed (or in a second framework in the same JVM) would find engines
 * of the stale one, which the current bundle's ALPN support refuses.
 */
final class TlsProvider {
    /**
     * The provider chosen, and why (for the log).
     *
     * @param provider the JSSE provider to make the SSLContext with; null for the JDK's default
     */
    record Choice(Provider provider, String description) {
    }

    private TlsProvider() {
    }

    /**
     * @throws IllegalArgumentException when the setting is not one of auto, conscrypt and jdk, or
     *                                  conscrypt is asked for but cannot be used here
     */
    static Choice choose(String setting) {
        switch (setting) {
            case "jdk":
                return jdk("as --tls-provider=jdk asks");
            case "conscrypt": {
                String unavailable = conscryptUnavailable();
                if (unavailable != null) {
                    throw new IllegalArgumentException("--tls-provider=conscrypt: Conscrypt cannot be used here: "
                            + unavailable + " (use --tls-provider=jdk or auto)");
                }
                return ConscryptLoader.choice();
            }
            case "auto": {
                String unavailable = conscryptUnavailable();
                return unavailable == null ? ConscryptLoader.choice() : jdk("Conscrypt is not available: " + unavailable);
            }
            default:
                throw new IllegalArgumentException("invalid --tls-provider \"" + setting
                        + "\": must be auto, conscrypt or jdk");
        }
    }

    private static Choice jdk(String why) {
        return new Choice(null, "the JDK's (" + why + ")");
    }

    /** Null when Conscrypt can be used, else why not. */
    private static String conscryptUnavailable() {
        try {
            return ConscryptLoader.unavailable();
        } catch (LinkageError e) {
            // The org.conscrypt package is not wired: the bundle is not installed.
            return "the org.conscrypt bundle is not installed";
        }
    }

    /** Touches org.conscrypt only when called, so this class loads without it. */
    private static final class ConscryptLoader {
        static String unavailable() {
            if (org.conscrypt.Conscrypt.isAvailable()) {
                return null;
            }
            try {
                org.conscrypt.Conscrypt.checkAvailability();
            } catch (Throwable t) {
                Throwable cause = t.getCause() != null ? t.getCause() : t;
                return "its native library does not load: " + cause;
            }
            return "its native library does not load";
        }

        static Choice choice() {
            org.conscrypt.Conscrypt.Version v = org.conscrypt.Conscrypt.version();
            return new Choice(org.conscrypt.Conscrypt.newProvider(),
                    "Conscrypt " + v.major() + "." + v.minor() + "." + v.patch() + " (BoringSSL)");
        }
    }
}
