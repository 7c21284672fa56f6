package io.kubelix.runtime.bootstrap;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A kubeconfig (clientcmd's {@code Config}, v1) with one cluster, one user (a token or a client
 * certificate) and one context,
 * the current one. The CA travels inline as {@code certificate-authority-data}, so the file works
 * wherever it is copied.
 */
final class Kubeconfig {

    static final String CLUSTER = "kubelix";
    static final String CONTEXT = "kubelix";

    private Kubeconfig() {
    }

    /** @param credentials the user's entry: {@code token}, or {@code client-certificate-data} and {@code client-key-data} */
    static byte[] render(String serverUrl, byte[] caPem, String user, Map<String, String> credentials) {
        Map<String, Object> cluster = new LinkedHashMap<>();
        cluster.put("certificate-authority-data", Base64.getEncoder().encodeToString(caPem));
        cluster.put("server", serverUrl);

        Map<String, Object> context = new LinkedHashMap<>();
        context.put("cluster", CLUSTER);
        context.put("user", user);

        Map<String, Object> config = new LinkedHashMap<>();
        config.put("apiVersion", "v1");
        config.put("kind", "Config");
        config.put("clusters", List.of(named(CLUSTER, "cluster", cluster)));
        config.put("contexts", List.of(named(CONTEXT, "context", context)));
        config.put("current-context", CONTEXT);
        config.put("preferences", Map.of());
        config.put("users", List.of(named(user, "user", new TreeMap<>(credentials))));

        // A mapper per call: this runs once per start, and no mapper outlives the bundle.
        YAMLMapper yaml = new YAMLMapper(YAMLFactory.builder()
                .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
                .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
                .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
                .build());
        try {
            return yaml.writeValueAsString(config).getBytes(StandardCharsets.UTF_8);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write kubeconfig YAML", e);
        }
    }

    // Ordered maps, so the same inputs give the same bytes at every start.
    private static Map<String, Object> named(String name, String key, Object value) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("name", name);
        entry.put(key, value);
        return entry;
    }
}
