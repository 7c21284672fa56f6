/**
 * kube-apiserver's bootstrap controllers: the system namespaces, and the {@code kubernetes}
 * Service with its Endpoints and EndpointSlice, each a post-start hook that {@code /readyz} waits for;
 * and the {@code extension-apiserver-authentication} ConfigMap of the authenticators' trust.
 */
package io.kubelix.runtime.controller.bootstrap;
