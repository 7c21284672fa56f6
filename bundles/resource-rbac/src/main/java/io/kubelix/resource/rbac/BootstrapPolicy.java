package io.kubelix.resource.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * kube's bootstrap policy (plugin/pkg/auth/authorizer/rbac/bootstrappolicy): the default cluster
 * roles (cluster-admin, admin, edit, view, the aggregate-to roles, system:basic-user,
 * system:discovery, system:monitoring, system:public-info-viewer, the roles kube gives its own
 * components, extension servers (system:auth-delegator) and certificate approvers) and their bindings, and the
 * roles of the {@code kube-} namespaces with their bindings (kube's namespace policy:
 * {@code kube-system/extension-apiserver-authentication-reader}, which extension API servers are
 * bound to), from {@code bootstrap/policy.json}, each labelled {@code kubernetes.io/bootstrapping=rbac-defaults} and annotated
 * {@code rbac.authorization.kubernetes.io/autoupdate: "true"}.
 *
 * <p>admin, edit and view are aggregated roles. Their rules here are already the union of the
 * bootstrap roles their selectors pick (view's into edit's, edit's into admin's), as the
 * {@link ClusterRoleAggregationController} makes them, so they serve before it has run.
 */
final class BootstrapPolicy {
    static final String BOOTSTRAPPING_LABEL = "kubernetes.io/bootstrapping";
    static final String BOOTSTRAPPING_VALUE = "rbac-defaults";
    static final String AUTOUPDATE_ANNOTATION = "rbac.authorization.kubernetes.io/autoupdate";

    private final List<ObjectNode> clusterRoles;
    private final List<ObjectNode> clusterRoleBindings;
    private final List<ObjectNode> roles;
    private final List<ObjectNode> roleBindings;

    private BootstrapPolicy(List<ObjectNode> clusterRoles, List<ObjectNode> clusterRoleBindings, List<ObjectNode> roles,
                            List<ObjectNode> roleBindings) {
        this.clusterRoles = clusterRoles;
        this.clusterRoleBindings = clusterRoleBindings;
        this.roles = roles;
        this.roleBindings = roleBindings;
    }

    /** The policy this bundle ships. */
    static BootstrapPolicy load(ObjectMapper mapper) {
        try (InputStream in = BootstrapPolicy.class.getResourceAsStream("/bootstrap/policy.json")) {
            if (in == null) {
                throw new IllegalStateException("bootstrap/policy.json is missing from the bundle");
            }
            JsonNode policy = mapper.readTree(in);
            List<ObjectNode> roles = new ArrayList<>();
            policy.path("clusterRoles").forEach(r -> roles.add(role(mapper, "ClusterRole", r)));
            aggregate(roles);
            List<ObjectNode> bindings = new ArrayList<>();
            policy.path("clusterRoleBindings").forEach(b -> bindings.add(binding(mapper, "ClusterRoleBinding", "ClusterRole", b)));
            List<ObjectNode> namespaceRoles = new ArrayList<>();
            policy.path("roles").forEach(r -> namespaceRoles.add(role(mapper, "Role", r)));
            List<ObjectNode> namespaceBindings = new ArrayList<>();
            policy.path("roleBindings").forEach(b -> namespaceBindings.add(binding(mapper, "RoleBinding", "Role", b)));
            return new BootstrapPolicy(List.copyOf(roles), List.copyOf(bindings), List.copyOf(namespaceRoles),
                    List.copyOf(namespaceBindings));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read bootstrap/policy.json", e);
        }
    }

    /** Fresh copies of the cluster roles. */
    List<ObjectNode> clusterRoles() {
        return clusterRoles.stream().map(ObjectNode::deepCopy).toList();
    }

    /** Fresh copies of the cluster role bindings. */
    List<ObjectNode> clusterRoleBindings() {
        return clusterRoleBindings.stream().map(ObjectNode::deepCopy).toList();
    }

    /** Fresh copies of the roles of the kube- namespaces. */
    List<ObjectNode> roles() {
        return roles.stream().map(ObjectNode::deepCopy).toList();
    }

    /** Fresh copies of the role bindings of the kube- namespaces. */
    List<ObjectNode> roleBindings() {
        return roleBindings.stream().map(ObjectNode::deepCopy).toList();
    }

    private static ObjectNode role(ObjectMapper mapper, String kind, JsonNode def) {
        ObjectNode role = object(mapper, kind, def);
        if (def.has("aggregationRule")) {
            role.set("aggregationRule", def.get("aggregationRule").deepCopy());
        }
        role.set("rules", def.has("rules") ? def.get("rules").deepCopy() : mapper.createArrayNode());
        return role;
    }

    private static ObjectNode binding(ObjectMapper mapper, String kind, String roleKind, JsonNode def) {
        ObjectNode binding = object(mapper, kind, def);
        ObjectNode ref = binding.putObject("roleRef");
        ref.put("apiGroup", RbacValidation.GROUP).put("kind", roleKind).put("name", def.path("role").asText());
        // kube's system:node binding has no subjects (the Node authorizer grants nodes their access).
        if (def.has("subjects")) {
            binding.set("subjects", def.get("subjects").deepCopy());
        }
        return binding;
    }

    private static ObjectNode object(ObjectMapper mapper, String kind, JsonNode def) {
        ObjectNode obj = mapper.createObjectNode();
        obj.put("apiVersion", RbacValidation.GROUP + "/v1").put("kind", kind);
        ObjectNode meta = obj.putObject("metadata");
        meta.put("name", def.path("name").asText());
        if (def.hasNonNull("namespace")) {
            meta.put("namespace", def.path("namespace").asText());
        }
        meta.putObject("annotations").put(AUTOUPDATE_ANNOTATION, "true");
        ObjectNode labels = meta.putObject("labels");
        labels.put(BOOTSTRAPPING_LABEL, BOOTSTRAPPING_VALUE);
        if (def.get("labels") instanceof ObjectNode extra) {
            labels.setAll(extra.deepCopy());
        }
        return obj;
    }

    /**
     * Fills each aggregated role's rules as the aggregation controller would, until nothing
     * changes (view is picked by edit's selector, edit by admin's), so they serve from the start.
     */
    static void aggregate(List<ObjectNode> roles) {
        boolean changed = true;
        while (changed) {
            changed = false;
            for (ObjectNode role : roles) {
                if (role.path("aggregationRule").isObject()) {
                    ArrayNode rules = ClusterRoleAggregationController.aggregate(role, roles);
                    if (!rules.equals(role.get("rules"))) {
                        role.set("rules", rules);
                        changed = true;
                    }
                }
            }
        }
    }
}
