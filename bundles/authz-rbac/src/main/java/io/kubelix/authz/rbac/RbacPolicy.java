package io.kubelix.authz.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.api.request.UserInfo;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * The roles, cluster roles and bindings the RBAC authorizer reads, kept current from their
 * informers' events, with the bindings indexed by subject so that a decision reads only the
 * bindings naming the user or one of its groups, whatever the number of bindings stored.
 *
 * <p>{@link #visitRulesFor} is kube's {@code DefaultRuleResolver.VisitRulesFor}: the rules of
 * every cluster role binding, then of every role binding in the request's namespace, that applies
 * to the user; a binding whose role is missing contributes an error instead of rules. Service
 * account subjects of a role binding without a namespace mean the binding's namespace; in a
 * cluster role binding they must name one.
 */
final class RbacPolicy {
    static final String GROUP = "rbac.authorization.k8s.io";

    /** A binding, read once from its object. */
    record Binding(String namespace, String name, String roleKind, String roleName, List<String> subjectKeys) {
        boolean clusterScoped() {
            return namespace.isEmpty();
        }

        String describe() {
            return clusterScoped() ? "ClusterRoleBinding \"" + name + "\""
                    : "RoleBinding \"" + name + "\" of namespace \"" + namespace + "\"";
        }
    }

    /** Visits one binding's rules; answers false to stop the walk. */
    interface RuleVisitor {
        boolean visit(Binding source, PolicyRule rule);
    }

    private final Map<String, List<PolicyRule>> clusterRoles = new ConcurrentHashMap<>();
    private final Map<String, List<PolicyRule>> roles = new ConcurrentHashMap<>();
    private final Map<String, Binding> bindings = new ConcurrentHashMap<>();
    private final Map<String, Set<Binding>> bindingsBySubject = new ConcurrentHashMap<>();

    void putClusterRole(JsonNode role) {
        clusterRoles.put(name(role), PolicyRule.listOf(role.path("rules")));
    }

    void removeClusterRole(JsonNode role) {
        clusterRoles.remove(name(role));
    }

    void putRole(JsonNode role) {
        roles.put(namespace(role) + "/" + name(role), PolicyRule.listOf(role.path("rules")));
    }

    void removeRole(JsonNode role) {
        roles.remove(namespace(role) + "/" + name(role));
    }

    /** Adds or replaces a RoleBinding or ClusterRoleBinding. */
    synchronized void putBinding(JsonNode binding) {
        Binding b = binding(binding);
        Binding old = bindings.put(key(b.namespace(), b.name()), b);
        if (old != null) {
            unindex(old);
        }
        for (String subject : b.subjectKeys()) {
            bindingsBySubject.computeIfAbsent(subject, k -> ConcurrentHashMap.newKeySet()).add(b);
        }
    }

    synchronized void removeBinding(JsonNode binding) {
        Binding old = bindings.remove(key(namespace(binding), name(binding)));
        if (old != null) {
            unindex(old);
        }
    }

    /**
     * Walks the rules that apply to {@code user} in {@code namespace} (empty: cluster-wide
     * only) until the visitor stops it, and answers the errors met on the way.
     */
    List<String> visitRulesFor(UserInfo user, String namespace, RuleVisitor visitor) {
        List<Binding> candidates = new ArrayList<>();
        collect(subjectKey("User", user.name()), candidates);
        for (String group : user.groups()) {
            collect(subjectKey("Group", group), candidates);
        }
        List<String> errors = new ArrayList<>();
        // Cluster role bindings first, as kube's resolver.
        if (!walk(candidates, Binding::clusterScoped, visitor, errors)) {
            return errors;
        }
        if (!namespace.isEmpty()) {
            walk(candidates, b -> b.namespace().equals(namespace), visitor, errors);
        }
        return errors;
    }

    private boolean walk(List<Binding> candidates, Predicate<Binding> applies, RuleVisitor visitor,
                         List<String> errors) {
        for (Binding b : candidates) {
            if (!applies.test(b)) {
                continue;
            }
            List<PolicyRule> rules = rulesOf(b, errors);
            for (PolicyRule rule : rules) {
                if (!visitor.visit(b, rule)) {
                    return false;
                }
            }
        }
        return true;
    }

    private List<PolicyRule> rulesOf(Binding b, List<String> errors) {
        List<PolicyRule> rules;
        if ("ClusterRole".equals(b.roleKind())) {
            rules = clusterRoles.get(b.roleName());
            if (rules == null) {
                errors.add("clusterrole." + GROUP + " \"" + b.roleName() + "\" not found");
            }
        } else if ("Role".equals(b.roleKind()) && !b.clusterScoped()) {
            rules = roles.get(b.namespace() + "/" + b.roleName());
            if (rules == null) {
                errors.add("role." + GROUP + " \"" + b.roleName() + "\" not found");
            }
        } else {
            errors.add("unsupported role reference kind: \"" + b.roleKind() + "\"");
            rules = null;
        }
        return rules == null ? List.of() : rules;
    }

    private void collect(String subjectKey, List<Binding> into) {
        Set<Binding> found = bindingsBySubject.get(subjectKey);
        if (found != null) {
            into.addAll(found);
        }
    }

    private void unindex(Binding old) {
        for (String subject : old.subjectKeys()) {
            Set<Binding> set = bindingsBySubject.get(subject);
            if (set != null) {
                set.remove(old);
                if (set.isEmpty()) {
                    bindingsBySubject.remove(subject);
                }
            }
        }
    }

    private static Binding binding(JsonNode binding) {
        String namespace = namespace(binding);
        List<String> keys = new ArrayList<>();
        for (JsonNode subject : binding.path("subjects")) {
            String kind = subject.path("kind").asText();
            String name = subject.path("name").asText();
            switch (kind) {
                case "User", "Group" -> keys.add(subjectKey(kind, name));
                case "ServiceAccount" -> {
                    String saNamespace = subject.path("namespace").asText("");
                    if (saNamespace.isEmpty()) {
                        saNamespace = namespace;
                    }
                    if (!saNamespace.isEmpty()) {
                        keys.add(subjectKey("User", "system:serviceaccount:" + saNamespace + ":" + name));
                    }
                }
                default -> {
                    // kube's appliesToUser matches no other kind.
                }
            }
        }
        JsonNode ref = binding.path("roleRef");
        return new Binding(namespace, name(binding), ref.path("kind").asText(), ref.path("name").asText(),
                List.copyOf(keys));
    }

    private static String subjectKey(String kind, String name) {
        return kind + ":" + name;
    }

    private static String key(String namespace, String name) {
        return namespace + "/" + name;
    }

    private static String name(JsonNode object) {
        return object.path("metadata").path("name").asText();
    }

    private static String namespace(JsonNode object) {
        return object.path("metadata").path("namespace").asText("");
    }
}
