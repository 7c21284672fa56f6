/**
 * kube-controller-manager's garbage collector, in the server: a dependency graph kept from informer
 * events, and workers that act on the objects a change concerns.
 */
package io.kubelix.runtime.controller.garbagecollector;
