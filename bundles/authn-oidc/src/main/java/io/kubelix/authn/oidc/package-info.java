/**
 * kube-apiserver's OpenID Connect authenticator: ID tokens of the configured issuers, from the
 * {@code --oidc-*} flags or the {@code jwt} authenticators of {@code --authentication-config}.
 */
package io.kubelix.authn.oidc;
