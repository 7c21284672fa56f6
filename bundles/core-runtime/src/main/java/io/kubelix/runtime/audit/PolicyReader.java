package io.kubelix.runtime.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.validation.NameValidators;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Reads {@code --audit-policy-file} as kube's policy.LoadPolicyFromFile does: YAML or JSON of kind
 * {@code Policy} in {@code audit.k8s.io/v1} (unknown fields ignored), validated by
 * ValidatePolicy, with at least one rule. Every error is kube's message, so an operator sees the
 * words kube-apiserver would have printed.
 */
public final class PolicyReader {
    static final String API_VERSION = "audit.k8s.io/v1";
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final List<String> LEVELS = List.of("None", "Metadata", "Request", "RequestResponse");
    private static final List<String> STAGES = List.of("RequestReceived", "ResponseStarted", "ResponseComplete",
            "Panic");

    private PolicyReader() {
    }

    /** @throws IllegalArgumentException with kube's message, naming the file */
    public static Policy read(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("failed to read file path \"" + file + "\": open " + file
                    + ": no such file or directory");
        } catch (IOException e) {
            throw new IllegalArgumentException("failed to read file path \"" + file + "\": " + e.getMessage());
        }
        try {
            return parse(bytes);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + ": from file " + file);
        }
    }

    /** LoadPolicyFromBytes. @throws IllegalArgumentException with kube's message */
    public static Policy parse(byte[] bytes) {
        JsonNode doc;
        try {
            doc = bytes.length == 0 ? null : YAML.readTree(bytes);
        } catch (IOException e) {
            throw new IllegalArgumentException("failed decoding: " + firstLine(e.getMessage()));
        }
        if (doc == null || doc.isMissingNode() || doc.isNull()) {
            throw new IllegalArgumentException("unknown group version field /, Kind= in policy");
        }
        if (!doc.isObject()) {
            throw new IllegalArgumentException("failed decoding: json: cannot unmarshal " + goType(doc)
                    + " into Go value of type struct { APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; Kind"
                    + " string \"json:\\\"kind,omitempty\\\"\" }");
        }
        String apiVersion = doc.path("apiVersion").asText("");
        String kind = doc.path("kind").asText("");
        if (apiVersion.isEmpty() || kind.isEmpty()) {
            int slash = apiVersion.indexOf('/');
            String gv = slash < 0 ? "/" + apiVersion : apiVersion;
            throw new IllegalArgumentException("unknown group version field " + gv + ", Kind=" + kind + " in policy");
        }
        if (!apiVersion.equals(API_VERSION) || !kind.equals("Policy")) {
            throw new IllegalArgumentException("failed decoding: no kind \"" + kind + "\" is registered for version \""
                    + apiVersion + "\" in scheme \"k8s.io/apiserver/pkg/audit/scheme.go:30\"");
        }
        Set<Stage> omitStages = EnumSet.noneOf(Stage.class);
        List<FieldError> errors = new ArrayList<>();
        List<String> policyStages = strings(doc, "omitStages", "Policy.omitStages");
        validateOmitStages(policyStages, "omitStages", errors, omitStages);
        List<Policy.Rule> rules = new ArrayList<>();
        JsonNode ruleNodes = doc.path("rules");
        if (!ruleNodes.isMissingNode() && !ruleNodes.isNull() && !ruleNodes.isArray()) {
            throw cannotUnmarshal(ruleNodes, "Policy.rules", "[]v1.PolicyRule");
        }
        for (int i = 0; i < ruleNodes.size(); i++) {
            rules.add(rule(ruleNodes.get(i), "rules[" + i + "]", errors));
        }
        if (!errors.isEmpty()) {
            throw new IllegalArgumentException(aggregate(errors));
        }
        if (rules.isEmpty()) {
            throw new IllegalArgumentException("loaded illegal policy with 0 rules");
        }
        return new Policy(rules, omitStages, bool(doc, "omitManagedFields", "Policy.omitManagedFields", false));
    }

    private static Policy.Rule rule(JsonNode node, String path, List<FieldError> errors) {
        if (!node.isObject()) {
            throw cannotUnmarshal(node, "Policy.rules", "v1.PolicyRule");
        }
        String levelName = node.path("level").isValueNode() ? node.path("level").asText("") : "";
        Level level = null;
        if (levelName.isEmpty()) {
            errors.add(FieldError.required(path + ".level", ""));
        } else if (!LEVELS.contains(levelName)) {
            errors.add(FieldError.notSupported(path + ".level", levelName, LEVELS));
        } else {
            level = Level.valueOf(levelName);
        }
        List<String> urls = strings(node, "nonResourceURLs", "PolicyRule.rules.nonResourceURLs");
        for (int i = 0; i < urls.size(); i++) {
            String url = urls.get(i);
            if (url.equals("*")) {
                continue;
            }
            if (!url.startsWith("/")) {
                errors.add(FieldError.invalid(path + ".nonResourceURLs[" + i + "]", url,
                        "non-resource URL rules must begin with a '/' character"));
            }
            if (!url.isEmpty() && url.substring(0, url.length() - 1).contains("*")) {
                errors.add(FieldError.invalid(path + ".nonResourceURLs[" + i + "]", url,
                        "non-resource URL wildcards '*' must be the final character of the rule"));
            }
        }
        List<Policy.GroupResources> resources = new ArrayList<>();
        JsonNode resourceNodes = node.path("resources");
        if (!resourceNodes.isMissingNode() && !resourceNodes.isNull() && !resourceNodes.isArray()) {
            throw cannotUnmarshal(resourceNodes, "PolicyRule.rules.resources", "[]v1.GroupResources");
        }
        for (JsonNode r : resourceNodes) {
            String group = r.path("group").asText("");
            List<String> names = strings(r, "resources", "GroupResources.rules.resources.resources");
            List<String> resourceNames = strings(r, "resourceNames", "GroupResources.rules.resources.resourceNames");
            // As kube's validateResources, the path names the field without the list index.
            if (!group.isEmpty()) {
                List<String> msgs = NameValidators.isDNS1123Subdomain(group);
                if (!msgs.isEmpty()) {
                    errors.add(FieldError.invalid(path + ".resources.group", group, String.join(",", msgs)));
                }
            }
            if (!resourceNames.isEmpty() && names.isEmpty()) {
                errors.add(FieldError.invalid(path + ".resources.resourceNames", new GoStrings(resourceNames),
                        "using resourceNames requires at least one resource"));
            }
            resources.add(new Policy.GroupResources(group, names, resourceNames));
        }
        Set<Stage> omitStages = EnumSet.noneOf(Stage.class);
        validateOmitStages(strings(node, "omitStages", "PolicyRule.rules.omitStages"), path + ".omitStages", errors,
                omitStages);
        List<String> namespaces = strings(node, "namespaces", "PolicyRule.rules.namespaces");
        if (!urls.isEmpty() && (!resources.isEmpty() || !namespaces.isEmpty())) {
            errors.add(FieldError.invalid(path + ".nonResourceURLs", new GoStrings(urls),
                    "rules cannot apply to both regular resources and non-resource URLs"));
        }
        JsonNode omf = node.path("omitManagedFields");
        Boolean omitManagedFields = omf.isMissingNode() || omf.isNull() ? null
                : bool(node, "omitManagedFields", "PolicyRule.rules.omitManagedFields", false);
        return new Policy.Rule(level == null ? Level.None : level, strings(node, "users", "PolicyRule.rules.users"),
                strings(node, "userGroups", "PolicyRule.rules.userGroups"),
                strings(node, "verbs", "PolicyRule.rules.verbs"), resources, namespaces, urls, omitStages,
                omitManagedFields);
    }

    private static void validateOmitStages(List<String> stages, String path, List<FieldError> errors, Set<Stage> into) {
        for (int i = 0; i < stages.size(); i++) {
            if (STAGES.contains(stages.get(i))) {
                into.add(Stage.valueOf(stages.get(i)));
            } else {
                errors.add(FieldError.invalid(path + "[" + i + "]", stages.get(i),
                        "allowed stages are " + String.join(",", STAGES)));
            }
        }
    }

    /** field.ErrorList.ToAggregate().Error(): one error's message, or several in brackets. */
    static String aggregate(List<FieldError> errors) {
        if (errors.size() == 1) {
            return errors.get(0).message();
        }
        return errors.stream().map(FieldError::message).collect(Collectors.joining(", ", "[", "]"));
    }

    private static List<String> strings(JsonNode parent, String field, String goField) {
        JsonNode n = parent.path(field);
        if (n.isMissingNode() || n.isNull()) {
            return List.of();
        }
        if (!n.isArray()) {
            throw cannotUnmarshal(n, goField, "[]string");
        }
        List<String> out = new ArrayList<>(n.size());
        for (JsonNode v : n) {
            if (!v.isValueNode() || v.isNull()) {
                throw cannotUnmarshal(v, goField, "string");
            }
            out.add(v.asText());
        }
        return out;
    }

    private static boolean bool(JsonNode parent, String field, String goField, boolean defaultValue) {
        JsonNode n = parent.path(field);
        if (n.isMissingNode() || n.isNull()) {
            return defaultValue;
        }
        if (n.isBoolean()) {
            return n.booleanValue();
        }
        // YAML's unquoted true/false arrive as booleans; anything else is the wrong type.
        throw cannotUnmarshal(n, goField, "bool");
    }

    private static IllegalArgumentException cannotUnmarshal(JsonNode value, String goField, String goType) {
        return new IllegalArgumentException("failed decoding: json: cannot unmarshal " + goType(value)
                + " into Go struct field " + goField + " of type " + goType);
    }

    private static String goType(JsonNode n) {
        if (n.isTextual()) {
            return "string";
        }
        if (n.isNumber()) {
            return "number";
        }
        if (n.isBoolean()) {
            return "bool";
        }
        return n.isArray() ? "array" : "object";
    }

    private static String firstLine(String message) {
        return message == null ? "" : message.lines().findFirst().orElse("");
    }

    /** A []string as Go's %#v prints it in a field error. */
    private record GoStrings(List<String> values) {
        @Override
        public String toString() {
            return values.stream().map(v -> "\"" + v + "\"").collect(Collectors.joining(", ", "[]string{", "}"));
        }
    }
}
