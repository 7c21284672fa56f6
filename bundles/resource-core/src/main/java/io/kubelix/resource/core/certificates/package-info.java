/**
 * kube-controller-manager's certificate controllers run by this plugin: the root CA publisher that
 * keeps {@code kube-root-ca.crt} in every namespace.
 */
package io.kubelix.resource.core.certificates;
