package io.kubelix.support.cel;

import java.util.Objects;

/**
 * The value of kube's {@code authorizer} CEL variable (k8s.io/apiserver/pkg/cel/library/authz):
 * authorization checks for the requesting user, written in an expression as
 * {@code authorizer.group('apps').resource('deployments').namespace('ns').check('create').allowed()}
 * or {@code authorizer.path('/healthz').check('get').allowed()}, and
 * {@code authorizer.serviceAccount('ns', 'sa')} for the same checks as a service account. The
 * caller supplies how a check is answered.
 */
public final class CelAuthorizer {

    /** What a check asks: a resource check when {@code path} is null, else a non-resource one. */
    public record Check(String user, String path, String group, String resource, String subresource,
                        String namespace, String name, String verb) {
    }

    /** kube's {@code Decision}: whether the check is allowed, why, and an error when it could not be decided. */
    public record Decision(boolean allowed, String reason, String error) {
    }

    /** Answers checks; {@code serviceAccount} is null for the requesting user. */
    @FunctionalInterface
    public interface Checker {
        Decision check(Check check, String serviceAccount);
    }

    final Checker checker;
    /** {@code system:serviceaccount:<ns>:<name>}, or null for the requesting user. */
    final String serviceAccount;

    public CelAuthorizer(Checker checker) {
        this(checker, null);
    }

    private CelAuthorizer(Checker checker, String serviceAccount) {
        this.checker = Objects.requireNonNull(checker, "checker");
        this.serviceAccount = serviceAccount;
    }

    CelAuthorizer asServiceAccount(String namespace, String name) {
        return new CelAuthorizer(checker, "system:serviceaccount:" + namespace + ":" + name);
    }

    /** A resource check in progress ({@code authorizer.group(g).resource(r)...}). */
    public record ResourceCheck(CelAuthorizer authorizer, String group, String resource, String subresource,
                                String namespace, String name) {
        /** {@code authorizer.requestResource}: the resource of the request being admitted. */
        public static ResourceCheck of(CelAuthorizer authorizer, String group, String resource, String subresource,
                                       String namespace, String name) {
            return new ResourceCheck(authorizer, group, resource, subresource, namespace, name);
        }

        Decision check(String verb) {
            return authorizer.checker.check(new Check(authorizer.serviceAccount, null, group, resource, subresource,
                    namespace, name, verb), authorizer.serviceAccount);
        }
    }

    /** {@code authorizer.group(g)}, before its resource is named. */
    record GroupCheck(CelAuthorizer authorizer, String group) {
    }

    /** {@code authorizer.path(p)}. */
    record PathCheck(CelAuthorizer authorizer, String path) {
        Decision check(String verb) {
            return authorizer.checker.check(new Check(authorizer.serviceAccount, path, "", "", "", "", "", verb),
                    authorizer.serviceAccount);
        }
    }
}
