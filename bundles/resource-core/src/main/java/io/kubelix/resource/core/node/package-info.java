/** Nodes, with {@code status}, and the TaintNodesByCondition admission plugin. */
package io.kubelix.resource.core.node;
