/**
 * Service account tokens: the issuer behind {@code serviceaccounts/token} (kube's TokenRequest)
 * and the authenticator of the JWTs it signs. Private to this bundle.
 */
package io.kubelix.authn.serviceaccount;
