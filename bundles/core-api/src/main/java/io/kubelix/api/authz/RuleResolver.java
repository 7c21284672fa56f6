package io.kubelix.api.authz;

import io.kubelix.api.request.UserInfo;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * authorizer.RuleResolver: an {@link Authorizer} that can also list what it allows a user, for
 * {@code SelfSubjectRulesReview} ({@code kubectl auth can-i --list}). An authorizer implements it
 * beside {@link Authorizer}, on the same service object.
 */
@ConsumerType
public interface RuleResolver {

    /** The rules that apply to the user in the namespace (empty: the cluster-wide ones only). */
    SubjectRules rulesFor(UserInfo user, String namespace);
}
