/**
 * The APIExtensionsServer as a plugin: {@code apiextensions.k8s.io/v1} CustomResourceDefinitions
 * and the custom resources they define. Private to the bundle.
 *
 * <p>{@link io.kubelix.apiextensions.ApiextensionsRESTStorageProvider} serves the CRDs with kube's
 * defaults and validation ({@code validation}), and runs kube's controllers ({@code controller})
 * on the server's informers. {@code customresource} serves each group's custom resources by
 * registering a RESTStorageProvider per group, built from the CRDs, with the structural schema
 * operations of {@code schema} (validation, pruning, defaulting).
 */
package io.kubelix.apiextensions;
