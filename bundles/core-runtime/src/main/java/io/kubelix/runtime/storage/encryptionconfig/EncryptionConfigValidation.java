package io.kubelix.runtime.storage.encryptionconfig;

import io.kubelix.api.errors.FieldError;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.runtime.storage.encryptionconfig.EncryptionConfiguration.Key;
import io.kubelix.runtime.storage.encryptionconfig.EncryptionConfiguration.ProviderConfiguration;
import io.kubelix.runtime.storage.encryptionconfig.EncryptionConfiguration.ResourceConfiguration;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * kube's ValidateEncryptionConfiguration, with its messages: every entry names resources and
 * providers, resource names are lower case and neither overlap nor repeat within an entry
 * ({@code secrets} beside {@code *.}), {@code *} alone and {@code resource.*} are refused, as are
 * the events.k8s.io and extensions groups and the allocators without a REST API; each provider
 * entry names exactly one provider, whose keys have a name and a base64 secret of the right
 * length (16, 24 or 32 bytes for AES, 32 for secretbox).
 */
final class EncryptionConfigValidation {
    private static final List<Integer> AES_KEY_SIZES = List.of(16, 24, 32);
    private static final List<Integer> SECRETBOX_KEY_SIZES = List.of(32);
    static final GroupResource ANY_GROUP_ANY_RESOURCE = new GroupResource("*", "*");

    private EncryptionConfigValidation() {
    }

    static List<FieldError> validate(EncryptionConfiguration config) {
        List<FieldError> errors = new ArrayList<>();
        if (config.resources().isEmpty()) {
            errors.add(FieldError.required("resources", "at least one resources is required"));
            return errors;
        }
        for (int i = 0; i < config.resources().size(); i++) {
            ResourceConfiguration conf = config.resources().get(i);
            String r = "resources[" + i + "].resources";
            String p = "resources[" + i + "].providers";
            if (conf.resources().isEmpty()) {
                errors.add(FieldError.required(r, "at least one " + r + " is required"));
            }
            errors.addAll(overlap(conf.resources(), r));
            errors.addAll(names(conf.resources(), r));
            if (conf.providers().isEmpty()) {
                errors.add(FieldError.required(p, "at least one " + p + " is required"));
            }
            for (int j = 0; j < conf.providers().size(); j++) {
                ProviderConfiguration provider = conf.providers().get(j);
                String path = p + "[" + j + "]";
                if (provider.names().isEmpty()) {
                    errors.add(FieldError.invalid(path, null, "provider does not contain any of the expected providers: "
                            + "KMS, AESGCM, AESCBC, Secretbox, Identity"));
                    continue;
                }
                if (provider.names().size() > 1) {
                    errors.add(FieldError.invalid(path, null, "more than one provider specified in a single element, "
                            + "should split into different list elements"));
                    continue;
                }
                switch (provider.name()) {
                    case "aesgcm", "aescbc" -> errors.addAll(keys(provider.keys(), path + "." + provider.name() + ".keys",
                            AES_KEY_SIZES));
                    case "secretbox" -> errors.addAll(keys(provider.keys(), path + ".secretbox.keys", SECRETBOX_KEY_SIZES));
                    default -> {
                    }
                }
            }
        }
        return errors;
    }

    /** kube's schema.ParseGroupResource: {@code deployments.apps}, {@code secrets}, {@code *.*}. */
    static GroupResource parse(String resource) {
        int dot = resource.indexOf('.');
        return dot < 0 ? new GroupResource("", resource)
                : new GroupResource(resource.substring(dot + 1), resource.substring(0, dot));
    }

    private static List<FieldError> overlap(List<String> resources, String path) {
        if (resources.size() < 2) {
            return List.of();
        }
        List<GroupResource> parsed = resources.stream().map(EncryptionConfigValidation::parse).toList();
        boolean duplicate = false;
        boolean overlap = false;
        for (int i = 0; i < parsed.size(); i++) {
            for (int j = 0; j < parsed.size(); j++) {
                GroupResource r1 = parsed.get(i);
                GroupResource r2 = parsed.get(j);
                if (i == j) {
                    continue;
                }
                if (r1.equals(r2) && !duplicate) {
                    duplicate = true;
                    continue;
                }
                if (overlap) {
                    continue;
                }
                if (r1.equals(ANY_GROUP_ANY_RESOURCE)) {
                    overlap = true;
                    continue;
                }
                if (r1.group().equals(r2.group()) && (r1.resource().equals("*") || r2.resource().equals("*"))) {
                    overlap = true;
                }
            }
        }
        List<FieldError> errors = new ArrayList<>();
        if (duplicate) {
            errors.add(FieldError.invalid(path, goStrings(resources), "the same resource cannot be specified multiple times"));
        }
        if (overlap) {
            errors.add(FieldError.invalid(path, goStrings(resources), "using overlapping resources such as 'secrets' and "
                    + "'*.' in the same resource list is not allowed as they will be masked"));
        }
        return errors;
    }

    private static List<FieldError> names(List<String> resources, String path) {
        List<FieldError> errors = new ArrayList<>();
        for (int j = 0; j < resources.size(); j++) {
            String res = resources.get(j);
            String at = path + "[" + j + "]";
            GroupResource gr = parse(res);
            String problem;
            if (!res.toLowerCase(Locale.ROOT).equals(res)) {
                problem = "resource name should not contain capital letters";
            } else if (res.equals("*")) {
                problem = "use '*.' to encrypt all the resources from core API group or *.* to encrypt all resources";
            } else if (res.equals("apiserveripinfo") || res.equals("serviceipallocations")
                    || res.equals("servicenodeportallocations")) {
                problem = "resources which do not have REST API/s cannot be encrypted";
            } else if (gr.group().equals("events.k8s.io")) {
                problem = "'*.events.k8s.io' objects are stored using the 'events' API group in etcd. Use 'events' "
                        + "instead in the config file";
            } else if (gr.group().equals("extensions")) {
                problem = "'extensions' group has been removed and cannot be used for encryption";
            } else if (gr.group().equals("*") && !gr.resource().equals("*")) {
                problem = "encrypting the same resource across groups is not supported";
            } else {
                continue;
            }
            errors.add(FieldError.invalid(at, res, problem));
        }
        return errors;
    }

    private static List<FieldError> keys(List<Key> keys, String path, List<Integer> sizes) {
        if (keys.isEmpty()) {
            return List.of(FieldError.required(path, "at least one keys is required"));
        }
        List<FieldError> errors = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            Key key = keys.get(i);
            String at = path + "[" + i + "]";
            if (key.name().isEmpty()) {
                errors.add(FieldError.required(at + ".name", "name is a mandatory field for a key"));
            }
            if (key.secret().isEmpty()) {
                errors.add(FieldError.required(at + ".secret", "secret is a mandatory field for a key"));
                continue;
            }
            byte[] secret = decodeKey(key.secret());
            if (secret == null) {
                errors.add(FieldError.invalid(at + ".secret", "REDACTED", "secrets must be base64 encoded"));
            } else if (!sizes.contains(secret.length)) {
                errors.add(FieldError.invalid(at + ".secret", "REDACTED", "secret is not of the expected length, got "
                        + secret.length + ", expected one of " + sizes.stream().map(String::valueOf)
                        .collect(Collectors.joining(" ", "[", "]"))));
            }
        }
        return errors;
    }

    /** Go's base64.StdEncoding: padded, no line breaks; null when it is not. */
    static byte[] decodeKey(String secret) {
        try {
            return Base64.getDecoder().decode(secret);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** Go's {@code %#v} of a []string, the way kube prints a resource list it refuses. */
    private static Object goStrings(List<String> values) {
        String rendered = values.stream().map(v -> "\"" + v + "\"").collect(Collectors.joining(", ", "[]string{", "}"));
        return new Object() {
            @Override
            public String toString() {
                return rendered;
            }
        };
    }
}
