/**
 * kube-controller-manager's namespace controller, in the server and driven by informers.
 */
package io.kubelix.runtime.controller.namespace;
