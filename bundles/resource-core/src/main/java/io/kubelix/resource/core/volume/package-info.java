/** Persistent volumes and claims, and the DefaultStorageClass admission plugin. */
package io.kubelix.resource.core.volume;
