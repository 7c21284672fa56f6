package io.kubelix.support.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelFunctionBinding;

import java.util.List;

/**
 * kube's authorizer library (k8s.io/apiserver/pkg/cel/library/authz.go) on {@link CelAuthorizer}:
 * {@code path}, {@code group}, {@code serviceAccount} on an authorizer; {@code resource} on a group
 * check; {@code subresource}, {@code namespace}, {@code name} and {@code check} on a resource check;
 * {@code check} on a path check; {@code allowed}, {@code reason}, {@code errored} and {@code error}
 * on a decision.
 */
final class AuthorizerLibrary {
    static final OpaqueType AUTHORIZER = OpaqueType.create("kubernetes.authorization.Authorizer");
    static final OpaqueType PATH_CHECK = OpaqueType.create("kubernetes.authorization.PathCheck");
    static final OpaqueType GROUP_CHECK = OpaqueType.create("kubernetes.authorization.GroupCheck");
    static final OpaqueType RESOURCE_CHECK = OpaqueType.create("kubernetes.authorization.ResourceCheck");
    static final OpaqueType DECISION = OpaqueType.create("kubernetes.authorization.Decision");

    private AuthorizerLibrary() {
    }

    static List<CelFunctionDecl> declarations() {
        return List.of(
                CelFunctionDecl.newFunctionDeclaration("path",
                        CelOverloadDecl.newMemberOverload("authorizer_path", PATH_CHECK, AUTHORIZER, SimpleType.STRING)),
                CelFunctionDecl.newFunctionDeclaration("group",
                        CelOverloadDecl.newMemberOverload("authorizer_group", GROUP_CHECK, AUTHORIZER, SimpleType.STRING)),
                CelFunctionDecl.newFunctionDeclaration("serviceAccount",
                        CelOverloadDecl.newMemberOverload("authorizer_serviceaccount", AUTHORIZER, AUTHORIZER,
                                SimpleType.STRING, SimpleType.STRING)),
                CelFunctionDecl.newFunctionDeclaration("resource",
                        CelOverloadDecl.newMemberOverload("groupcheck_resource", RESOURCE_CHECK, GROUP_CHECK, SimpleType.STRING)),
                CelFunctionDecl.newFunctionDeclaration("subresource",
                        CelOverloadDecl.newMemberOverload("resourcecheck_subresource", RESOURCE_CHECK, RESOURCE_CHECK,
                                SimpleType.STRING)),
                CelFunctionDecl.newFunctionDeclaration("namespace",
                        CelOverloadDecl.newMemberOverload("resourcecheck_namespace", RESOURCE_CHECK, RESOURCE_CHECK,
                                SimpleType.STRING)),
                CelFunctionDecl.newFunctionDeclaration("name",
                        CelOverloadDecl.newMemberOverload("resourcecheck_name", RESOURCE_CHECK, RESOURCE_CHECK, SimpleType.STRING)),
                CelFunctionDecl.newFunctionDeclaration("check",
                        CelOverloadDecl.newMemberOverload("resourcecheck_check", DECISION, RESOURCE_CHECK, SimpleType.STRING),
                        CelOverloadDecl.newMemberOverload("pathcheck_check", DECISION, PATH_CHECK, SimpleType.STRING)),
                CelFunctionDecl.newFunctionDeclaration("allowed",
                        CelOverloadDecl.newMemberOverload("decision_allowed", SimpleType.BOOL, DECISION)),
                CelFunctionDecl.newFunctionDeclaration("reason",
                        CelOverloadDecl.newMemberOverload("decision_reason", SimpleType.STRING, DECISION)),
                CelFunctionDecl.newFunctionDeclaration("errored",
                        CelOverloadDecl.newMemberOverload("decision_errored", SimpleType.BOOL, DECISION)),
                CelFunctionDecl.newFunctionDeclaration("error",
                        CelOverloadDecl.newMemberOverload("decision_error", SimpleType.STRING, DECISION)));
    }

    static List<CelFunctionBinding> bindings() {
        return List.of(
                CelFunctionBinding.from("authorizer_path", CelAuthorizer.class, String.class,
                        (a, p) -> new CelAuthorizer.PathCheck(a, p)),
                CelFunctionBinding.from("authorizer_group", CelAuthorizer.class, String.class,
                        (a, g) -> new CelAuthorizer.GroupCheck(a, g)),
                CelFunctionBinding.from("authorizer_serviceaccount", List.of(CelAuthorizer.class, String.class, String.class),
                        args -> ((CelAuthorizer) args[0]).asServiceAccount((String) args[1], (String) args[2])),
                CelFunctionBinding.from("groupcheck_resource", CelAuthorizer.GroupCheck.class, String.class,
                        (g, r) -> new CelAuthorizer.ResourceCheck(g.authorizer(), g.group(), r, "", "", "")),
                CelFunctionBinding.from("resourcecheck_subresource", CelAuthorizer.ResourceCheck.class, String.class,
                        (c, s) -> new CelAuthorizer.ResourceCheck(c.authorizer(), c.group(), c.resource(), s, c.namespace(), c.name())),
                CelFunctionBinding.from("resourcecheck_namespace", CelAuthorizer.ResourceCheck.class, String.class,
                        (c, n) -> new CelAuthorizer.ResourceCheck(c.authorizer(), c.group(), c.resource(), c.subresource(), n, c.name())),
                CelFunctionBinding.from("resourcecheck_name", CelAuthorizer.ResourceCheck.class, String.class,
                        (c, n) -> new CelAuthorizer.ResourceCheck(c.authorizer(), c.group(), c.resource(), c.subresource(), c.namespace(), n)),
                CelFunctionBinding.from("resourcecheck_check", CelAuthorizer.ResourceCheck.class, String.class,
                        CelAuthorizer.ResourceCheck::check),
                CelFunctionBinding.from("pathcheck_check", CelAuthorizer.PathCheck.class, String.class,
                        CelAuthorizer.PathCheck::check),
                CelFunctionBinding.from("decision_allowed", CelAuthorizer.Decision.class, CelAuthorizer.Decision::allowed),
                CelFunctionBinding.from("decision_reason", CelAuthorizer.Decision.class, CelAuthorizer.Decision::reason),
                CelFunctionBinding.from("decision_errored", CelAuthorizer.Decision.class, d -> !d.error().isEmpty()),
                CelFunctionBinding.from("decision_error", CelAuthorizer.Decision.class, CelAuthorizer.Decision::error));
    }
}
