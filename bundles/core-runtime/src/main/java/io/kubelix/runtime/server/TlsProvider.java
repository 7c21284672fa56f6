package io.kubelix.runtime.server;

import java.security.Security;

/**
 * Which JSSE provider serves TLS ({@code --tls-provider}): {@code conscrypt} (BoringSSL through the
 * Conscrypt bundle, which encrypts with a fraction of the JDK's CPU), {@code jdk} (the JDK's own),
 * or {@code auto}, the default: Conscrypt when its bundle is installed and its native library
 * loads on this platform, else the JDK's.
 */
final class TlsProvider {
    static final String CONSCRYPT = "Conscrypt";

    /** The provider chosen, and why (for the log). {@code name} is null for the JDK's default. */
    record Choice(String name, String description) {
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
                String unavailable = registerConscrypt();
                if (unavailable != null) {
                    throw new IllegalArgumentException("--tls-provider=conscrypt: Conscrypt cannot be used here: "
                            + unavailable + " (use --tls-provider=jdk or auto)");
                }
                return conscrypt();
            }
            case "auto": {
                String unavailable = registerConscrypt();
                return unavailable == null ? conscrypt() : jdk("Conscrypt is not available: " + unavailable);
            }
            default:
                throw new IllegalArgumentException("invalid --tls-provider \"" + setting
                        + "\": must be auto, conscrypt or jdk");
        }
    }

    private static Choice conscrypt() {
        return new Choice(CONSCRYPT, "Conscrypt " + ConscryptLoader.version() + " (BoringSSL)");
    }

    private static Choice jdk(String why) {
        return new Choice(null, "the JDK's (" + why + ")");
    }

    /** Registers Conscrypt's provider (after the JDK's, so no default changes) unless it is; null, or why it cannot be. */
    private static String registerConscrypt() {
        try {
            return ConscryptLoader.register();
        } catch (LinkageError e) {
            // The org.conscrypt package is not wired: the bundle is not installed.
            return "the org.conscrypt bundle is not installed";
        }
    }

    /** Touches org.conscrypt only when called, so this class loads without it. */
    private static final class ConscryptLoader {
        static String register() {
            if (!org.conscrypt.Conscrypt.isAvailable()) {
                try {
                    org.conscrypt.Conscrypt.checkAvailability();
                } catch (Throwable t) {
                    Throwable cause = t.getCause() != null ? t.getCause() : t;
                    return "its native library does not load: " + cause;
                }
                return "its native library does not load";
            }
            synchronized (TlsProvider.class) {
                if (Security.getProvider(CONSCRYPT) == null) {
                    Security.addProvider(org.conscrypt.Conscrypt.newProvider());
                }
            }
            return null;
        }

        static String version() {
            org.conscrypt.Conscrypt.Version v = org.conscrypt.Conscrypt.version();
            return v.major() + "." + v.minor() + "." + v.patch();
        }
    }
}
