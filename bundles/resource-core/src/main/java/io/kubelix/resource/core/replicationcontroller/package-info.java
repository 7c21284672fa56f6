/** Replication controllers, with {@code status} and {@code scale}. */
package io.kubelix.resource.core.replicationcontroller;
