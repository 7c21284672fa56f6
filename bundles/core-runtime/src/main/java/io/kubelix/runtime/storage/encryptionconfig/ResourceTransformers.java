package io.kubelix.runtime.storage.encryptionconfig;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.storage.ValueTransformer;
import io.kubelix.runtime.storage.encryptionconfig.EncryptionConfiguration.Key;
import io.kubelix.runtime.storage.encryptionconfig.EncryptionConfiguration.ProviderConfiguration;
import io.kubelix.runtime.storage.encryptionconfig.EncryptionConfiguration.ResourceConfiguration;
import io.kubelix.runtime.storage.value.AesCbcTransformer;
import io.kubelix.runtime.storage.value.AesGcmTransformer;
import io.kubelix.runtime.storage.value.PrefixTransformers;
import io.kubelix.runtime.storage.value.PrefixTransformers.PrefixTransformer;
import io.kubelix.runtime.storage.value.SecretboxTransformer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * One loaded {@code --encryption-provider-config}: each configured resource's transformer (kube's
 * transformer overrides), and the lookup of a resource's transformer as kube's
 * transformerFromOverrides: the resource itself, else {@code *.<group>}, else {@code *.*}, else
 * identity. A resource listed in several entries gets the providers of all of them, in order; a
 * resource listed after {@code *.<group>} or {@code *.*} covered it is an error, since the earlier
 * rule would mask it.
 */
public final class ResourceTransformers {
    static final String AESCBC_PREFIX = "k8s:enc:aescbc:v1:";
    static final String AESGCM_PREFIX = "k8s:enc:aesgcm:v1:";
    static final String SECRETBOX_PREFIX = "k8s:enc:secretbox:v1:";
    /** The events.k8s.io events are stored as the core events, and encrypted as them. */
    private static final String EVENTS_GROUP = "events.k8s.io";

    private final Map<GroupResource, ValueTransformer> overrides;
    private final String contentHash;
    private final String description;

    private ResourceTransformers(Map<GroupResource, ValueTransformer> overrides, String contentHash, String description) {
        this.overrides = overrides;
        this.contentHash = contentHash;
        this.description = description;
    }

    /**
     * kube's LoadEncryptionConfig: reads, decodes, validates and builds.
     *
     * @throws IllegalArgumentException with kube's message when the file cannot be used
     */
    public static ResourceTransformers load(Path file, ObjectMapper yaml) {
        byte[] data;
        try {
            data = read(file);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("error while parsing file: error while loading file: " + e.getMessage());
        }
        EncryptionConfiguration config;
        try {
            config = EncryptionConfigReader.decode(yaml, data);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("error while parsing file: error decoding encryption provider "
                    + "configuration file \"" + file + "\": " + e.getMessage());
        }
        List<FieldError> errors = EncryptionConfigValidation.validate(config);
        if (!errors.isEmpty()) {
            throw new IllegalArgumentException("error while parsing file: " + aggregate(errors));
        }
        try {
            return build(config, hash(data), new SecureRandom());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("error while building transformers: " + e.getMessage());
        }
    }

    /** The hash of the file's content, to tell a changed file without keeping its keys in memory. */
    static String contentHash(Path file) {
        return hash(read(file));
    }

    /** Builds the transformers of a valid configuration. */
    static ResourceTransformers build(EncryptionConfiguration config, String contentHash, SecureRandom random) {
        Map<GroupResource, List<PrefixTransformer>> byResource = new LinkedHashMap<>();
        for (ResourceConfiguration entry : config.resources()) {
            List<PrefixTransformer> transformers = new ArrayList<>();
            for (ProviderConfiguration provider : entry.providers()) {
                transformers.add(provider(provider, random));
            }
            for (String resource : entry.resources()) {
                GroupResource gr = EncryptionConfigValidation.parse(resource);
                GroupResource anyInGroup = new GroupResource(gr.group(), "*");
                if (byResource.containsKey(anyInGroup)) {
                    throw new IllegalArgumentException(masked(gr, anyInGroup));
                }
                if (byResource.containsKey(EncryptionConfigValidation.ANY_GROUP_ANY_RESOURCE)) {
                    throw new IllegalArgumentException(masked(gr, EncryptionConfigValidation.ANY_GROUP_ANY_RESOURCE));
                }
                byResource.computeIfAbsent(gr, k -> new ArrayList<>()).addAll(transformers);
            }
        }
        Map<GroupResource, ValueTransformer> overrides = new LinkedHashMap<>();
        byResource.forEach((gr, list) -> overrides.put(gr, new PrefixTransformers("no matching prefix found", list)));
        String description = config.resources().stream()
                .map(e -> String.join(",", e.resources()) + ": " + e.providers().stream()
                        .map(ResourceTransformers::describe).collect(Collectors.joining(", ")))
                .collect(Collectors.joining("; "));
        return new ResourceTransformers(Map.copyOf(overrides), contentHash, description);
    }

    /** The transformer of {@code resource}: its own, its group's, every group's, or identity. */
    public ValueTransformer forResource(GroupResource resource) {
        GroupResource gr = EVENTS_GROUP.equals(resource.group()) && resource.resource().equals("events")
                ? new GroupResource("", "events") : resource;
        ValueTransformer t = overrides.get(gr);
        if (t == null) {
            t = overrides.get(new GroupResource(gr.group(), "*"));
        }
        if (t == null) {
            t = overrides.get(EncryptionConfigValidation.ANY_GROUP_ANY_RESOURCE);
        }
        return t == null ? ValueTransformer.IDENTITY : t;
    }

    String contentHash() {
        return contentHash;
    }

    /** Which resources get which providers and keys (never the secrets), for the log. */
    public String describe() {
        return description;
    }

    private static PrefixTransformer provider(ProviderConfiguration provider, SecureRandom random) {
        return switch (provider.name()) {
            case "identity" -> PrefixTransformer.of("", ValueTransformer.IDENTITY);
            case "aescbc" -> keyed(AESCBC_PREFIX, "AES", provider.keys(), k -> new AesCbcTransformer(k, random));
            case "aesgcm" -> keyed(AESGCM_PREFIX, "AES", provider.keys(), k -> new AesGcmTransformer(k, random));
            case "secretbox" -> keyed(SECRETBOX_PREFIX, "Secretbox", provider.keys(), k -> new SecretboxTransformer(k, random));
            default -> throw new IllegalArgumentException("could not configure KMS plugin \"" + provider.kmsName()
                    + "\": the kms provider is not supported by Kubelix; use aescbc, aesgcm or secretbox");
        };
    }

    /** kube's aesPrefixTransformer and secretboxPrefixTransformer: one transformer per key, chosen by {@code <name>:}. */
    private static PrefixTransformer keyed(String prefix, String what, List<Key> keys,
                                           Function<byte[], ValueTransformer> cipher) {
        List<PrefixTransformer> byKey = new ArrayList<>();
        for (Key key : keys) {
            byKey.add(PrefixTransformer.of(key.name() + ":", cipher.apply(EncryptionConfigValidation.decodeKey(key.secret()))));
        }
        return PrefixTransformer.of(prefix, new PrefixTransformers(
                "no matching key was found for the provided " + what + " transformer", byKey));
    }

    private static String describe(ProviderConfiguration provider) {
        return provider.keys().isEmpty() ? provider.name()
                : provider.name() + " " + provider.keys().stream().map(Key::name).collect(Collectors.joining(","));
    }

    private static String masked(GroupResource gr, GroupResource rule) {
        return "resource \"" + yamlString(gr) + "\" is masked by earlier rule \"" + yamlString(rule) + "\"";
    }

    /** kube's grYAMLString: {@code *.} for every resource of the core group. */
    private static String yamlString(GroupResource gr) {
        return gr.group().isEmpty() && gr.resource().equals("*") ? "*." : gr.toString();
    }

    /** field.ErrorList.ToAggregate().Error(): one error's message, or several in brackets. */
    private static String aggregate(List<FieldError> errors) {
        return errors.size() == 1 ? errors.get(0).message()
                : errors.stream().map(FieldError::message).collect(Collectors.joining(", ", "[", "]"));
    }

    private static byte[] read(Path file) {
        byte[] data;
        try {
            data = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("error reading encryption provider configuration file \"" + file
                    + "\": open " + file + ": no such file or directory");
        } catch (IOException e) {
            throw new IllegalArgumentException("error reading encryption provider configuration file \"" + file
                    + "\": " + e.getMessage());
        }
        if (data.length == 0) {
            throw new IllegalArgumentException("encryption provider configuration file \"" + file + "\" is empty");
        }
        return data;
    }

    private static String hash(byte[] data) {
        try {
            return "k8s:enc:unstable:1:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
