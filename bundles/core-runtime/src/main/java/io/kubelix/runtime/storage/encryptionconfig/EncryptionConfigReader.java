package io.kubelix.runtime.storage.encryptionconfig;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.kubelix.runtime.storage.encryptionconfig.EncryptionConfiguration.Key;
import io.kubelix.runtime.storage.encryptionconfig.EncryptionConfiguration.ProviderConfiguration;
import io.kubelix.runtime.storage.encryptionconfig.EncryptionConfiguration.ResourceConfiguration;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Decodes an EncryptionConfiguration from YAML or JSON as kube's strict decoder does: only
 * {@code apiserver.config.k8s.io/v1}, the one version kube registers for this kind, and an
 * unknown field is an error ("strict decoding error: unknown field ..."), so a misspelt provider
 * is not silently ignored. Validation is {@link EncryptionConfigValidation}'s.
 */
final class EncryptionConfigReader {
    static final String API_VERSION = "apiserver.config.k8s.io/v1";
    static final String KIND = "EncryptionConfiguration";
    private static final Set<String> PROVIDERS = Set.of("aescbc", "aesgcm", "secretbox", "identity", "kms");
    private static final Set<String> KMS_FIELDS = Set.of("apiVersion", "name", "endpoint", "cachesize", "timeout");

    private final ObjectMapper yaml;
    private final List<String> unknown = new ArrayList<>();

    private EncryptionConfigReader(ObjectMapper yaml) {
        this.yaml = yaml;
    }

    /** @throws IllegalArgumentException with kube's message */
    static EncryptionConfiguration decode(ObjectMapper yaml, byte[] data) {
        return new EncryptionConfigReader(yaml).read(data);
    }

    /** The mapper that reads both YAML and JSON, JSON being YAML. */
    static ObjectMapper yamlMapper() {
        return new ObjectMapper(new YAMLFactory());
    }

    private EncryptionConfiguration read(byte[] data) {
        JsonNode doc;
        try {
            doc = yaml.readTree(data);
        } catch (IOException e) {
            String message = e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst().orElse("");
            throw new IllegalArgumentException("error converting YAML to JSON: " + message);
        }
        if (doc == null || !doc.isObject()) {
            throw new IllegalArgumentException("couldn't get version/kind; json parse error: the document is not an object");
        }
        String apiVersion = doc.path("apiVersion").asText("");
        String kind = doc.path("kind").asText("");
        if (kind.isEmpty()) {
            throw new IllegalArgumentException("Object 'Kind' is missing in '" + doc + "'");
        }
        if (!API_VERSION.equals(apiVersion) || !KIND.equals(kind)) {
            throw new IllegalArgumentException("no kind \"" + kind + "\" is registered for version \"" + apiVersion + "\"");
        }
        known(doc, "", Set.of("apiVersion", "kind", "resources"));
        List<ResourceConfiguration> resources = new ArrayList<>();
        List<JsonNode> entries = list(doc.path("resources"), "resources");
        for (int i = 0; i < entries.size(); i++) {
            resources.add(resource(entries.get(i), "resources[" + i + "]"));
        }
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("strict decoding error: " + String.join(", ", unknown));
        }
        return new EncryptionConfiguration(resources);
    }

    private ResourceConfiguration resource(JsonNode entry, String path) {
        object(entry, path);
        known(entry, path + ".", Set.of("resources", "providers"));
        List<String> names = new ArrayList<>();
        for (JsonNode n : list(entry.path("resources"), path + ".resources")) {
            names.add(string(n, path + ".resources"));
        }
        List<ProviderConfiguration> providers = new ArrayList<>();
        List<JsonNode> nodes = list(entry.path("providers"), path + ".providers");
        for (int j = 0; j < nodes.size(); j++) {
            providers.add(provider(nodes.get(j), path + ".providers[" + j + "]"));
        }
        return new ResourceConfiguration(names, providers);
    }

    private ProviderConfiguration provider(JsonNode node, String path) {
        object(node, path);
        known(node, path + ".", PROVIDERS);
        List<String> names = new ArrayList<>();
        List<Key> keys = new ArrayList<>();
        String kmsName = null;
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            // a provider given as null is no provider, as Go's nil pointer
            if (!PROVIDERS.contains(f.getKey()) || f.getValue().isNull()) {
                continue;
            }
            String name = f.getKey();
            String at = path + "." + name;
            names.add(name);
            object(f.getValue(), at);
            switch (name) {
                case "identity" -> known(f.getValue(), at + ".", Set.of());
                case "kms" -> {
                    known(f.getValue(), at + ".", KMS_FIELDS);
                    kmsName = f.getValue().path("name").asText("");
                }
                default -> {
                    known(f.getValue(), at + ".", Set.of("keys"));
                    List<JsonNode> keyNodes = list(f.getValue().path("keys"), at + ".keys");
                    for (int k = 0; k < keyNodes.size(); k++) {
                        JsonNode key = keyNodes.get(k);
                        object(key, at + ".keys[" + k + "]");
                        known(key, at + ".keys[" + k + "].", Set.of("name", "secret"));
                        keys.add(new Key(string(key.path("name"), at + ".keys[" + k + "].name"),
                                string(key.path("secret"), at + ".keys[" + k + "].secret")));
                    }
                }
            }
        }
        return new ProviderConfiguration(names, keys, kmsName);
    }

    private void known(JsonNode node, String path, Set<String> fields) {
        node.fieldNames().forEachRemaining(f -> {
            if (!fields.contains(f)) {
                unknown.add("unknown field \"" + path + f + "\"");
            }
        });
    }

    private static List<JsonNode> list(JsonNode node, String path) {
        if (node.isMissingNode() || node.isNull()) {
            return List.of();
        }
        if (!node.isArray()) {
            throw new IllegalArgumentException("json: cannot unmarshal " + goType(node) + " into Go struct field "
                    + path + " of type array");
        }
        List<JsonNode> out = new ArrayList<>();
        node.forEach(out::add);
        return out;
    }

    private static void object(JsonNode node, String path) {
        if (!node.isObject()) {
            throw new IllegalArgumentException("json: cannot unmarshal " + goType(node) + " into Go struct field "
                    + path + " of type object");
        }
    }

    private static String string(JsonNode node, String path) {
        if (node.isMissingNode() || node.isNull()) {
            return "";
        }
        if (!node.isTextual()) {
            throw new IllegalArgumentException("json: cannot unmarshal " + goType(node) + " into Go struct field "
                    + path + " of type string");
        }
        return node.asText();
    }

    private static String goType(JsonNode node) {
        return node.isArray() ? "array" : node.isObject() ? "object" : node.isNumber() ? "number"
                : node.isBoolean() ? "bool" : "string";
    }
}
