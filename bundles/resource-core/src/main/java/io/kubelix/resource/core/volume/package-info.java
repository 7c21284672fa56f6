/**
 * Persistent volumes and claims, the DefaultStorageClass, StorageObjectInUseProtection and
 * PersistentVolumeClaimResize admission plugins, and the pvc-protection and pv-protection controllers.
 */
package io.kubelix.resource.core.volume;
