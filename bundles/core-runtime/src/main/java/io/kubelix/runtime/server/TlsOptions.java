package io.kubelix.runtime.server;

import org.eclipse.jetty.util.ssl.SslContextFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * kube-apiserver's {@code --tls-min-version} (default {@code VersionTLS12}) and
 * {@code --tls-cipher-suites} (default: the TLS provider's own secure list), applied to the
 * serving TLS. Cipher suites are given by their IANA names, as Go names them; the TLS 1.3 suites
 * are not configurable, as in Go.
 */
record TlsOptions(List<String> protocols, List<String> cipherSuites) {
    private static final Map<String, List<String>> FROM_MIN_VERSION = Map.of(
            "VersionTLS10", List.of("TLSv1", "TLSv1.1", "TLSv1.2", "TLSv1.3"),
            "VersionTLS11", List.of("TLSv1.1", "TLSv1.2", "TLSv1.3"),
            "VersionTLS12", List.of("TLSv1.2", "TLSv1.3"),
            "VersionTLS13", List.of("TLSv1.3"));
    private static final List<String> TLS13_SUITES = List.of("TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384",
            "TLS_CHACHA20_POLY1305_SHA256");

    /** Parses the settings, with messages naming the flag for a bad value. */
    static TlsOptions parse(String minVersion, String cipherSuites) {
        List<String> protocols = FROM_MIN_VERSION.get(minVersion);
        if (protocols == null) {
            throw new IllegalArgumentException("invalid tls-min-version \"" + minVersion + "\": must be one of "
                    + "VersionTLS10, VersionTLS11, VersionTLS12, VersionTLS13");
        }
        List<String> suites = new ArrayList<>();
        for (String suite : cipherSuites.split(",")) {
            String s = suite.trim();
            if (s.isEmpty()) {
                continue;
            }
            if (!s.startsWith("TLS_") || !s.matches("[A-Z0-9_]+")) {
                throw new IllegalArgumentException("invalid tls-cipher-suites: \"" + s + "\" is not a cipher suite "
                        + "name such as TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256");
            }
            suites.add(s);
        }
        if (!suites.isEmpty()) {
            TLS13_SUITES.forEach(s -> {
                if (!suites.contains(s)) {
                    suites.add(s);
                }
            });
        }
        return new TlsOptions(List.copyOf(protocols), List.copyOf(suites));
    }

    /**
     * Applies the options; a cipher suite the TLS provider does not have stops the server with its
     * name (Jetty would otherwise drop it silently).
     */
    void applyTo(SslContextFactory.Server tls) {
        tls.setIncludeProtocols(protocols.toArray(String[]::new));
        if (!cipherSuites.isEmpty()) {
            tls.setIncludeCipherSuites(cipherSuites.toArray(String[]::new));
        }
    }

    /** Checks the suites against those the started TLS provider supports. */
    void checkSupported(List<String> supported) {
        List<String> unknown = new ArrayList<>();
        for (String s : cipherSuites) {
            if (!TLS13_SUITES.contains(s) && !supported.contains(s)) {
                unknown.add(s);
            }
        }
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("tls-cipher-suites: unsupported by the TLS provider: "
                    + String.join(", ", unknown));
        }
    }
}
