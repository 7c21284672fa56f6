package io.kubelix.support.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.schema.GroupVersionKind;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.api.schema.ResourceSchema;
import io.kubelix.api.schema.SchemaResolver;
import io.kubelix.support.cel.CelCompileException;
import io.kubelix.support.cel.CelEnvironment;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * kube's ValidatingAdmissionPolicy {@code TypeChecker}: each validation's {@code expression} and
 * {@code messageExpression} compiled with {@code object} and {@code oldObject} typed by the schema of
 * each kind the policy's {@code matchConstraints} name (explicit groups, versions and resources only,
 * at most ten kinds, in group, version and kind order) and {@code params} by its param kind's; a kind
 * whose schema is not known is left out. {@code request}, {@code namespaceObject} and {@code variables}
 * are typed as kube types them ({@link PolicyEnvironment}). What does not compile is a warning for
 * {@code status.typeChecking.expressionWarnings}, worded as kube's: the kind, then cel's issues.
 */
public final class PolicyTypeChecker {
    /** kube's {@code maxTypesToCheck}. */
    private static final int MAX_TYPES_TO_CHECK = 10;
    private static final Comparator<GroupVersionKind> GVK_ORDER = Comparator.comparing(GroupVersionKind::group)
            .thenComparing(GroupVersionKind::version).thenComparing(GroupVersionKind::kind);

    /** A warning about one expression: where it is ({@code spec.validations[0].expression}) and what is wrong. */
    public record ExpressionWarning(String fieldRef, String warning) {
    }

    private final SchemaResolver schemas;

    public PolicyTypeChecker(SchemaResolver schemas) {
        this.schemas = schemas;
    }

    /** The warnings of a policy's spec; empty when every expression type-checks (or no kind is known). */
    public List<ExpressionWarning> check(JsonNode spec) {
        List<GroupVersionKind> kinds = new ArrayList<>();
        List<CelEnvironment> environments = new ArrayList<>();
        JsonNode params = schemaOf(paramsKind(spec.path("paramKind")));
        for (GroupVersionKind kind : typesToCheck(spec.path("matchConstraints"))) {
            JsonNode object = schemaOf(kind);
            if (object != null) {
                kinds.add(kind);
                environments.add(PolicyEnvironment.of(object, params != null, params, spec.path("variables"), true));
            }
        }
        List<ExpressionWarning> warnings = new ArrayList<>();
        int i = 0;
        for (JsonNode v : spec.path("validations")) {
            String path = "spec.validations[" + i++ + "]";
            check(path + ".expression", v.path("expression").asText(""), kinds, environments, warnings);
            String messageExpression = v.path("messageExpression").asText("");
            if (!messageExpression.isEmpty()) {
                check(path + ".messageExpression", messageExpression, kinds, environments, warnings);
            }
        }
        return warnings;
    }

    private static void check(String fieldRef, String expression, List<GroupVersionKind> kinds,
                              List<CelEnvironment> environments, List<ExpressionWarning> warnings) {
        List<String> results = new ArrayList<>();
        for (int k = 0; k < kinds.size(); k++) {
            try {
                environments.get(k).compile(expression);
            } catch (CelCompileException e) {
                GroupVersionKind gvk = kinds.get(k);
                results.add(gvk.group() + "/" + gvk.version() + ", Kind=" + gvk.kind() + ": " + e.getMessage() + "\n");
            }
        }
        if (!results.isEmpty()) {
            warnings.add(new ExpressionWarning(fieldRef, String.join("\n", results)));
        }
    }

    /** kube's {@code typesToCheck}: the kinds of the rules' explicit groups, versions and resources, sorted. */
    List<GroupVersionKind> typesToCheck(JsonNode matchConstraints) {
        Set<GroupVersionKind> gvks = new TreeSet<>(GVK_ORDER);
        int count = 0;
        for (JsonNode rule : matchConstraints.path("resourceRules")) {
            List<String> groups = explicit(rule.path("apiGroups"), "*");
            List<String> versions = explicit(rule.path("apiVersions"), "*");
            List<String> resources = new ArrayList<>();
            rule.path("resources").forEach(r -> {
                if (!r.asText().contains("*") && !r.asText().contains("/")) {
                    resources.add(r.asText());
                }
            });
            if (groups == null || groups.isEmpty() || versions == null || versions.isEmpty() || resources.isEmpty()) {
                continue;
            }
            Collections.sort(groups);
            Collections.sort(versions);
            Collections.sort(resources);
            for (String g : groups) {
                for (String v : versions) {
                    for (String r : resources) {
                        GroupVersionKind kind = schemas.kindFor(new GroupVersionResource(g, v, r));
                        if (kind != null) {
                            gvks.add(kind);
                            if (++count == MAX_TYPES_TO_CHECK) {
                                return List.copyOf(gvks);
                            }
                        }
                    }
                }
            }
        }
        return List.copyOf(gvks);
    }

    /** The items, or null when one is a wildcard (kube gives up on the rule). */
    private static List<String> explicit(JsonNode items, String wildcard) {
        List<String> out = new ArrayList<>();
        for (JsonNode item : items) {
            if (item.asText().contains(wildcard)) {
                return null;
            }
            out.add(item.asText());
        }
        return out;
    }

    private static GroupVersionKind paramsKind(JsonNode paramKind) {
        String apiVersion = paramKind.path("apiVersion").asText("");
        String kind = paramKind.path("kind").asText("");
        if (apiVersion.isEmpty() || kind.isEmpty() || apiVersion.chars().filter(c -> c == '/').count() > 1) {
            return null;
        }
        int slash = apiVersion.indexOf('/');
        return slash < 0 ? new GroupVersionKind("", apiVersion, kind)
                : new GroupVersionKind(apiVersion.substring(0, slash), apiVersion.substring(slash + 1), kind);
    }

    /** A kind's schema with its references inlined, or null when it is not known. */
    private JsonNode schemaOf(GroupVersionKind kind) {
        if (kind == null) {
            return null;
        }
        ResourceSchema schema = schemas.resolveSchema(kind);
        return schema == null ? null : inline(schema, schema.root(), new IdentityHashMap<>());
    }

    /**
     * A schema with each {@code $ref} replaced by the definition it names; a definition met again
     * inside itself (recursive types) becomes an untyped schema, {@code dyn} to CEL.
     */
    private static JsonNode inline(ResourceSchema rs, JsonNode schema, Map<JsonNode, Boolean> visiting) {
        if (!schema.isObject()) {
            return schema;
        }
        ObjectNode definition = rs.resolve(schema);
        if (definition != null) {
            if (visiting.containsKey(definition)) {
                return JsonNodeFactory.instance.objectNode();
            }
            visiting.put(definition, true);
            JsonNode inlined = inline(rs, definition, visiting);
            visiting.remove(definition);
            return inlined;
        }
        ObjectNode copy = JsonNodeFactory.instance.objectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it = schema.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            switch (f.getKey()) {
                case "properties" -> {
                    ObjectNode props = copy.putObject("properties");
                    f.getValue().fields().forEachRemaining(p -> props.set(p.getKey(), inline(rs, p.getValue(), visiting)));
                }
                case "items", "additionalProperties" -> copy.set(f.getKey(), inline(rs, f.getValue(), visiting));
                default -> copy.set(f.getKey(), f.getValue());
            }
        }
        return copy;
    }
}
