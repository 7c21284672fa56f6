/** Nodes, with {@code status}. */
package io.kubelix.resource.core.node;
