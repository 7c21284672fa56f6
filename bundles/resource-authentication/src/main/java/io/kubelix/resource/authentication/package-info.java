/**
 * The authentication.k8s.io API group at {@code /apis/authentication.k8s.io/v1}:
 * {@code SelfSubjectReview}, so {@code kubectl auth whoami} works, and {@code TokenReview}. Private to
 * the bundle.
 */
package io.kubelix.resource.authentication;
