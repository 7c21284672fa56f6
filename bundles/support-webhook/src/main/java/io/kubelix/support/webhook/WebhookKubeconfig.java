package io.kubelix.support.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;

/**
 * What a webhook's kubeconfig file ({@code --authorization-webhook-config-file},
 * {@code --audit-webhook-config-file}) says, as kube-apiserver reads it: the first cluster's {@code server} and CA ({@code certificate-authority} or
 * {@code -data}), and what the first user presents: a bearer token ({@code token} or
 * {@code tokenFile}) and a client certificate ({@code client-certificate} and {@code client-key},
 * or their {@code -data}), if any. Relative file paths are relative to the config file.
 *
 * @param server        the URL requests are POSTed to
 * @param caPem         the PEM CA certificates to trust, or null for the JDK's own
 * @param token         the bearer token to send, or null
 * @param clientCertPem the PEM client certificate (and its chain) to present, or null
 * @param clientKeyPem  the PEM private key of the client certificate, or null
 */
public record WebhookKubeconfig(URI server, byte[] caPem, String token, byte[] clientCertPem, byte[] clientKeyPem) {

    /** A target without a client certificate. */
    public WebhookKubeconfig(URI server, byte[] caPem, String token) {
        this(server, caPem, token, null, null);
    }

    /**
     * @param what the file's role in messages, such as {@code authorization webhook config file}
     * @throws IllegalArgumentException naming the file and what is wrong with it
     */
    public static WebhookKubeconfig read(Path file, ObjectMapper yaml, String what) {
        JsonNode config;
        try {
            config = yaml.readTree(Files.readAllBytes(file));
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + what + " " + file + ": " + e);
        }
        JsonNode cluster = config.path("clusters").path(0).path("cluster");
        String server = cluster.path("server").asText("");
        if (server.isEmpty()) {
            throw new IllegalArgumentException(what + " " + file
                    + " names no clusters[0].cluster.server");
        }
        URI uri = URI.create(server);
        if (!"https".equals(uri.getScheme()) && !"http".equals(uri.getScheme())) {
            throw new IllegalArgumentException(what + " " + file + ": server \"" + server
                    + "\" is not an http(s) URL");
        }
        byte[] ca = bytes(file, cluster, "certificate-authority", what);
        JsonNode user = config.path("users").path(0).path("user");
        String token = user.path("token").asText("");
        if (token.isEmpty() && !user.path("tokenFile").asText("").isEmpty()) {
            token = new String(bytes(file, user, "tokenFile-as-file", what), StandardCharsets.UTF_8).trim();
        }
        byte[] cert = bytes(file, user, "client-certificate", what);
        byte[] key = bytes(file, user, "client-key", what);
        if ((cert == null) != (key == null)) {
            // client-go's "client-cert-data and client-key-data must be specified together".
            throw new IllegalArgumentException(what + " " + file
                    + ": users[0].user has a client certificate without its key, or a key without its certificate");
        }
        return new WebhookKubeconfig(uri, ca, token.isEmpty() ? null : token, cert, key);
    }

    /** {@code <key>-data} (base64) or {@code <key>} (a file path); {@code tokenFile-as-file} reads {@code tokenFile}. */
    static byte[] bytes(Path file, JsonNode node, String key, String what) {
        String data = node.path(key + "-data").asText("");
        if (!data.isEmpty()) {
            return Base64.getDecoder().decode(data);
        }
        String path = node.path(key.equals("tokenFile-as-file") ? "tokenFile" : key).asText("");
        if (path.isEmpty()) {
            return null;
        }
        Path resolved = file.toAbsolutePath().getParent().resolve(path);
        try {
            return Files.readAllBytes(resolved);
        } catch (IOException e) {
            throw new IllegalArgumentException(what + " " + file + ": cannot read "
                    + resolved + ": " + e);
        }
    }
}
