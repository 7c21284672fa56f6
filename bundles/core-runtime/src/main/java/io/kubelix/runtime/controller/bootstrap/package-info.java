/**
 * kube-apiserver's bootstrap controllers: the system namespaces, and the {@code kubernetes}
 * Service with its Endpoints and EndpointSlice, each a post-start hook that {@code /readyz} waits for.
 */
package io.kubelix.runtime.controller.bootstrap;
