package io.kubelix.support.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;

/**
 * kube's {@code AuthenticationInfoResolver} for admission webhooks: the credentials a webhook client
 * presents, from the kubeconfig file the plugin's {@code kubeConfigFile} names. A webhook's target is
 * named {@code host:port} for a URL (port 443 when the URL gives none) and
 * {@code <service>.<namespace>.svc}, with {@code :<port>} unless the port is 443, for a service. The
 * user of that name is taken, else of a {@code *.} wildcard of its trailing parts (the longest first:
 * {@code *.ns.svc} before {@code *.svc}), else, for port 443, the same two without the port, else the
 * user named {@code *}, else the user of the current context; without any, the call is anonymous.
 */
public final class AuthenticationInfoResolver {
    /** No kubeconfig: every call is anonymous. */
    public static final AuthenticationInfoResolver NONE = new AuthenticationInfoResolver(Map.of(), null);

    /**
     * What a kubeconfig user presents; absent parts are null. A token (from {@code token}, else the
     * file {@code tokenFile}) is sent as a bearer token, else {@code username} and {@code password}
     * as basic credentials; a client certificate is offered when the server asks for one.
     */
    public record AuthInfo(String token, String username, String password, byte[] clientCertPem, byte[] clientKeyPem) {
        public static final AuthInfo ANONYMOUS = new AuthInfo(null, null, null, null, null);

        /** The {@code Authorization} header to send, or null. */
        public String authorization() {
            if (token != null) {
                return "Bearer " + token;
            }
            if (username != null || password != null) {
                String pair = (username == null ? "" : username) + ":" + (password == null ? "" : password);
                return "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8));
            }
            return null;
        }

        public boolean hasClientCertificate() {
            return clientCertPem != null;
        }
    }

    private final Map<String, AuthInfo> users;
    private final AuthInfo currentContextUser;

    private AuthenticationInfoResolver(Map<String, AuthInfo> users, AuthInfo currentContextUser) {
        this.users = users;
        this.currentContextUser = currentContextUser;
    }

    /**
     * Reads a kubeconfig's users; relative file paths in them are relative to the file.
     *
     * @throws IllegalArgumentException naming the file and what is wrong with it
     */
    public static AuthenticationInfoResolver read(Path file, ObjectMapper yaml) {
        String what = "admission webhook kubeConfigFile";
        JsonNode config;
        try {
            config = yaml.readTree(Files.readAllBytes(file));
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + what + " " + file + ": " + e);
        }
        Map<String, AuthInfo> users = new HashMap<>();
        for (JsonNode u : config.path("users")) {
            users.put(u.path("name").asText(""), user(file, u.path("name").asText(""), u.path("user"), what));
        }
        String context = config.path("current-context").asText("");
        AuthInfo current = null;
        for (JsonNode c : config.path("contexts")) {
            if (!context.isEmpty() && context.equals(c.path("name").asText())) {
                current = users.get(c.path("context").path("user").asText(""));
            }
        }
        return new AuthenticationInfoResolver(Map.copyOf(users), current);
    }

    private static AuthInfo user(Path file, String name, JsonNode user, String what) {
        String token = user.path("token").asText("");
        if (token.isEmpty() && !user.path("tokenFile").asText("").isEmpty()) {
            token = new String(WebhookKubeconfig.bytes(file, user, "tokenFile-as-file", what), StandardCharsets.UTF_8)
                    .trim();
        }
        byte[] cert = WebhookKubeconfig.bytes(file, user, "client-certificate", what);
        byte[] key = WebhookKubeconfig.bytes(file, user, "client-key", what);
        if ((cert == null) != (key == null)) {
            throw new IllegalArgumentException(what + " " + file + ": user \"" + name
                    + "\" has a client certificate without its key, or a key without its certificate");
        }
        return new AuthInfo(token.isEmpty() ? null : token, text(user, "username"), text(user, "password"), cert, key);
    }

    private static String text(JsonNode node, String field) {
        String s = node.path(field).asText("");
        return s.isEmpty() ? null : s;
    }

    /** The credentials for a webhook's {@code clientConfig}: its {@code url}, else its {@code service}. */
    public AuthInfo forClientConfig(JsonNode clientConfig) {
        if (users.isEmpty()) {
            return AuthInfo.ANONYMOUS;
        }
        if (clientConfig.hasNonNull("url")) {
            URI url = URI.create(clientConfig.get("url").asText());
            return forHostPort(url.getHost() + ":" + (url.getPort() < 0 ? 443 : url.getPort()));
        }
        JsonNode svc = clientConfig.path("service");
        return forService(svc.path("name").asText(), svc.path("namespace").asText(), svc.path("port").asInt(443));
    }

    /** kube's {@code ClientConfigForService}. */
    public AuthInfo forService(String name, String namespace, int port) {
        return resolve(name + "." + namespace + ".svc" + (port == 443 ? "" : ":" + port));
    }

    /** kube's {@code ClientConfigFor} of a URL's {@code host:port}. */
    public AuthInfo forHostPort(String hostPort) {
        return resolve(hostPort);
    }

    private AuthInfo resolve(String target) {
        AuthInfo found = exactOrWildcard(target);
        if (found == null && target.endsWith(":443")) {
            found = exactOrWildcard(target.substring(0, target.length() - ":443".length()));
        }
        if (found == null) {
            found = users.get("*");
        }
        if (found == null) {
            found = currentContextUser;
        }
        return found == null ? AuthInfo.ANONYMOUS : found;
    }

    private AuthInfo exactOrWildcard(String target) {
        AuthInfo exact = users.get(target);
        if (exact != null) {
            return exact;
        }
        String[] steps = target.split("\\.", -1);
        for (int i = 1; i < steps.length; i++) {
            AuthInfo wildcard = users.get("*." + String.join(".", Arrays.copyOfRange(steps, i, steps.length)));
            if (wildcard != null) {
                return wildcard;
            }
        }
        return null;
    }
}
