package io.kubelix.runtime.server;

import io.kubelix.api.authz.AuthorizationChain;
import io.kubelix.api.authz.AuthorizationDecision;
import io.kubelix.api.authz.Authorizer;
import io.kubelix.api.authz.RuleResolver;
import io.kubelix.api.authz.SubjectRules;
import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * kube-apiserver's union authorizer with its privileged group in front: members of
 * {@code system:masters} are allowed; otherwise the authorizers are asked in order and the first
 * ALLOW or DENY decides. When none decides, the answer is NO_OPINION (which the server forbids)
 * with the reasons of those that gave one, joined.
 */
final class UnionAuthorizer implements AuthorizationChain {
    private final Supplier<List<Authorizer>> authorizers;

    UnionAuthorizer(Supplier<List<Authorizer>> authorizers) {
        this.authorizers = authorizers;
    }

    @Override
    public AuthorizationDecision authorize(UserInfo user, RequestInfo request) {
        if (user.groups().contains(UserInfo.SYSTEM_PRIVILEGED_GROUP)) {
            return AuthorizationDecision.allow("");
        }
        List<String> reasons = new ArrayList<>(1);
        for (Authorizer a : authorizers.get()) {
            AuthorizationDecision d = a.authorize(user, request);
            if (d.decision() != AuthorizationDecision.Decision.NO_OPINION) {
                return d.decision() == AuthorizationDecision.Decision.ALLOW || reasons.isEmpty() ? d
                        : AuthorizationDecision.deny(String.join(", ", reasons) + (d.reason().isEmpty() ? ""
                                : ", " + d.reason()));
            }
            if (!d.reason().isEmpty()) {
                reasons.add(d.reason());
            }
        }
        return new AuthorizationDecision(AuthorizationDecision.Decision.NO_OPINION, String.join(", ", reasons));
    }

    @Override
    public SubjectRules rulesFor(UserInfo user, String namespace) {
        SubjectRules rules = SubjectRules.none();
        for (Authorizer a : authorizers.get()) {
            if (a instanceof RuleResolver resolver) {
                rules = rules.and(resolver.rulesFor(user, namespace));
            } else {
                rules = rules.and(new SubjectRules(List.of(), List.of(), true,
                        a.getClass().getSimpleName() + " does not list the rules it allows"));
            }
        }
        return rules;
    }
}
