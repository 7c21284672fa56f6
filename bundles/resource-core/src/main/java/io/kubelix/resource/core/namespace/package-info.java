/** Namespaces, with {@code status} and {@code finalize}, and the NamespaceLifecycle admission plugin. */
package io.kubelix.resource.core.namespace;
