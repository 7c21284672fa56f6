package io.kubelix.resource.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.api.authz.AuthorizationChain;
import io.kubelix.api.authz.AuthorizationDecision;
import io.kubelix.api.authz.SubjectRules;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;
import io.kubelix.api.schema.GroupResource;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * kube's RBAC escalation prevention: a user may write a role only with rules they hold
 * themselves, or when allowed the {@code escalate} verb on it; and a binding only to a role whose
 * rules they hold, or when allowed the {@code bind} verb on it. Members of {@code system:masters}
 * may do both. A refusal is 403, naming the rules the user lacks as kube-apiserver does
 * ({@code {APIGroups:[""], Resources:["secrets"], Verbs:["get"]}}). Without the server's
 * authorization chain nobody but {@code system:masters} may grant anything.
 */
final class EscalationCheck {
    /** Reads the rules of a binding's role reference; throws the role's NotFound when it is missing. */
    interface RoleRules {
        JsonNode rulesOf(RequestContext ctx, String kind, String name, String namespace);
    }

    private final Supplier<AuthorizationChain> authorization;
    private final RoleRules roles;

    EscalationCheck(Supplier<AuthorizationChain> authorization, RoleRules roles) {
        this.authorization = authorization;
        this.roles = roles;
    }

    /** Before a role or cluster role with these rules is written. */
    void checkRole(RequestContext ctx, GroupResource gr, String name, String namespace, JsonNode rules) {
        UserInfo user = ctx.user();
        if (privileged(user) || allowed(user, "escalate", gr.resource(), namespace, requestName(ctx))) {
            return;
        }
        confirmNoEscalation(user, gr, name, namespace, rules);
    }

    /** Before a binding to {@code roleRef} is written. */
    void checkBinding(RequestContext ctx, GroupResource gr, String name, String namespace, JsonNode roleRef) {
        UserInfo user = ctx.user();
        String kind = roleRef.path("kind").asText();
        String roleName = roleRef.path("name").asText();
        String roleResource = "Role".equals(kind) ? "roles" : "clusterroles";
        if (privileged(user) || allowed(user, "bind", roleResource, namespace, roleName)) {
            return;
        }
        confirmNoEscalation(user, gr, name, namespace, roles.rulesOf(ctx, kind, roleName, namespace));
    }

    private void confirmNoEscalation(UserInfo user, GroupResource gr, String name, String namespace, JsonNode rules) {
        AuthorizationChain chain = authorization.get();
        SubjectRules held = chain == null ? SubjectRules.none() : chain.rulesFor(user, namespace);
        List<String> missing = RuleCoverage.missing(held, rules);
        if (missing.isEmpty()) {
            return;
        }
        String message = "user " + quote(user.name()) + " (groups=" + quoted(user.groups()) + ") is attempting to"
                + " grant RBAC permissions not currently held:\n" + String.join("\n", new TreeSet<>(missing));
        if (!held.evaluationError().isEmpty()) {
            message += "; resolution errors: [" + held.evaluationError() + "]";
        }
        throw StatusException.forbidden(gr, name, message);
    }

    private static boolean privileged(UserInfo user) {
        return user.groups().contains(UserInfo.SYSTEM_PRIVILEGED_GROUP);
    }

    private boolean allowed(UserInfo user, String verb, String resource, String namespace, String name) {
        AuthorizationChain chain = authorization.get();
        if (chain == null) {
            return false;
        }
        RequestInfo attributes = new RequestInfo(true, "", verb, "apis", RbacValidation.GROUP, "*", namespace,
                resource, "", name, List.of());
        return chain.authorize(user, attributes).decision() == AuthorizationDecision.Decision.ALLOW;
    }

    private static String requestName(RequestContext ctx) {
        RequestInfo info = ctx.requestInfo();
        return info == null ? "" : info.name();
    }

    /** Go's %q of a string. */
    static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    /** Go's %q of a []string: {@code ["a" "b"]}. */
    static String quoted(List<String> values) {
        List<String> q = new ArrayList<>(values.size());
        values.forEach(v -> q.add(quote(v)));
        return "[" + String.join(" ", q) + "]";
    }
}
