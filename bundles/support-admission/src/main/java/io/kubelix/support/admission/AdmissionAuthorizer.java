package io.kubelix.support.admission;

import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.authz.AuthorizationChain;
import io.kubelix.api.authz.AuthorizationDecision;
import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;
import io.kubelix.support.cel.CelAuthorizer;

import java.util.List;
import java.util.Map;

/**
 * The {@code authorizer} and {@code authorizer.requestResource} of admission expressions: checks
 * answered by the server's authorization chain for the requesting user (or a service account
 * named with {@code serviceAccount}), as kube's admission CEL asks its authorizer.
 */
public final class AdmissionAuthorizer {
    private AdmissionAuthorizer() {
    }

    /** Adds {@code authorizer} and {@code authorizer.requestResource} for this request to {@code bindings}. */
    public static void bind(Map<String, Object> bindings, AdmissionAttributes a, AuthorizationChain chain) {
        if (chain == null) {
            return;
        }
        UserInfo requester = a.context().user();
        CelAuthorizer authorizer = new CelAuthorizer((check, serviceAccount) -> {
            UserInfo user = serviceAccount == null ? requester : serviceAccountUser(serviceAccount);
            RequestInfo info = check.path() == null
                    ? new RequestInfo(true, "", check.verb(), check.group().isEmpty() ? "api" : "apis", check.group(),
                    "*", check.namespace(), check.resource(), check.subresource(), check.name(), List.of())
                    : new RequestInfo(false, check.path(), check.verb(), "", "", "", "", "", "", "", List.of());
            try {
                AuthorizationDecision d = chain.authorize(user, info);
                String reason = d.reason() == null ? "" : d.reason();
                return new CelAuthorizer.Decision(d.decision() == AuthorizationDecision.Decision.ALLOW, reason, "");
            } catch (RuntimeException e) {
                return new CelAuthorizer.Decision(false, "", String.valueOf(e.getMessage()));
            }
        });
        bindings.put("authorizer", authorizer);
        bindings.put("authorizer.requestResource", CelAuthorizer.ResourceCheck.of(authorizer, a.resource().group(),
                a.resource().resource(), a.subresource() == null ? "" : a.subresource(),
                a.namespace() == null ? "" : a.namespace(), a.name() == null ? "" : a.name()));
    }

    /** The user a service account's token authenticates as. */
    private static UserInfo serviceAccountUser(String name) {
        String namespace = name.split(":")[2];
        return new UserInfo(name, "", List.of("system:serviceaccounts", "system:serviceaccounts:" + namespace,
                UserInfo.ALL_AUTHENTICATED), Map.of());
    }
}
