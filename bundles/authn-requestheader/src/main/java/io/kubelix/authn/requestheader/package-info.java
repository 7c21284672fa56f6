/**
 * kube-apiserver's request header authenticator ({@code --requestheader-*}): a front proxy, such as
 * an aggregator, that authenticated the user itself names them in request headers, trusted only
 * with the proxy's client certificate.
 */
package io.kubelix.authn.requestheader;
