/**
 * Persistent volumes and claims, the DefaultStorageClass and StorageObjectInUseProtection admission
 * plugins, and the pvc-protection and pv-protection controllers.
 */
package io.kubelix.resource.core.volume;
