package io.kubelix.storage.etcd;

import io.kubelix.support.time.GoDuration;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The backend's settings, each read from its OSGi configuration, else from the framework property
 * {@code kubelix.<name>}, else its default; validated so a bad value fails activation with a
 * message naming the setting.
 *
 * @param servers            etcd client URLs
 * @param prefix             the key prefix
 * @param caFile             CA bundle for the servers' certificates, or null
 * @param certFile           client certificate, or null
 * @param keyFile            client key, or null
 * @param compactionInterval how often to compact; zero for never
 */
record EtcdSettings(List<URI> servers, String prefix, Path caFile, Path certFile, Path keyFile,
                    Duration compactionInterval) {
    static final String DEFAULT_SERVERS = "http://127.0.0.1:2379";
    static final String DEFAULT_PREFIX = "/registry";
    static final String DEFAULT_COMPACTION_INTERVAL = "5m";

    EtcdSettings {
        servers = List.copyOf(servers);
    }

    /** Reads the settings; {@code frameworkProperty} is {@code BundleContext::getProperty}. */
    static EtcdSettings read(Map<String, ?> config, Function<String, String> frameworkProperty) {
        Function<String, String> get = name -> {
            Object v = config.get(name);
            if (v != null && !v.toString().isBlank()) {
                return v.toString().trim();
            }
            String p = frameworkProperty.apply("kubelix." + name);
            return p != null && !p.isBlank() ? p.trim() : null;
        };
        List<URI> servers = parseServers(orDefault(get.apply("etcd-servers"), DEFAULT_SERVERS));
        String prefix = orDefault(get.apply("etcd-prefix"), DEFAULT_PREFIX);
        if (!prefix.startsWith("/")) {
            throw new IllegalArgumentException("invalid etcd-prefix \"" + prefix + "\": must start with '/'");
        }
        Path ca = file("etcd-cafile", get.apply("etcd-cafile"));
        Path cert = file("etcd-certfile", get.apply("etcd-certfile"));
        Path key = file("etcd-keyfile", get.apply("etcd-keyfile"));
        if ((cert == null) != (key == null)) {
            throw new IllegalArgumentException("etcd-certfile and etcd-keyfile must be given together");
        }
        Duration interval = GoDuration.parseFlag("etcd-compaction-interval",
                orDefault(get.apply("etcd-compaction-interval"), DEFAULT_COMPACTION_INTERVAL));
        return new EtcdSettings(servers, prefix, ca, cert, key, interval);
    }

    boolean tls() {
        return servers.stream().anyMatch(u -> "https".equals(u.getScheme()));
    }

    /** The servers as jetcd endpoints (host:port, scheme dropped: TLS is one setting for all). */
    String[] endpoints() {
        return servers.stream().map(u -> "http://" + u.getHost() + ":" + u.getPort()).toArray(String[]::new);
    }

    static List<URI> parseServers(String value) {
        List<URI> servers = new ArrayList<>();
        for (String s : value.split(",")) {
            String t = s.trim();
            if (t.isEmpty()) {
                continue;
            }
            URI u;
            try {
                u = URI.create(t.contains("://") ? t : "http://" + t);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("invalid etcd-servers entry \"" + t + "\": " + e.getMessage());
            }
            String scheme = u.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https") || u.getHost() == null) {
                throw new IllegalArgumentException("invalid etcd-servers entry \"" + t
                        + "\": must be http://host:port or https://host:port");
            }
            int port = u.getPort() > 0 ? u.getPort() : 2379;
            servers.add(URI.create(scheme + "://" + u.getHost() + ":" + port));
        }
        if (servers.isEmpty()) {
            throw new IllegalArgumentException("etcd-servers must name at least one server");
        }
        boolean https = servers.get(0).getScheme().equals("https");
        if (servers.stream().anyMatch(u -> u.getScheme().equals("https") != https)) {
            throw new IllegalArgumentException("etcd-servers mixes http:// and https:// endpoints: " + value);
        }
        return servers;
    }

    private static Path file(String name, String value) {
        if (value == null) {
            return null;
        }
        Path p = Path.of(value);
        if (!Files.isReadable(p)) {
            throw new IllegalArgumentException("invalid " + name + " \"" + value + "\": not a readable file");
        }
        return p;
    }

    private static String orDefault(String v, String d) {
        return v == null ? d : v;
    }
}
