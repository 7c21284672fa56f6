/**
 * The authorization.k8s.io API group at {@code /apis/authorization.k8s.io/v1}: the access reviews
 * ({@code SelfSubjectAccessReview}, {@code SubjectAccessReview}, {@code LocalSubjectAccessReview})
 * and {@code SelfSubjectRulesReview}, answered by the server's authorization chain, so
 * {@code kubectl auth can-i} works. Private to the bundle.
 */
package io.kubelix.resource.authorization;
