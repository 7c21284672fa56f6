/**
 * The storage.k8s.io API group at {@code /apis/storage.k8s.io/v1}: storageclasses, csidrivers,
 * csinodes and volumeattachments (with {@code status}). Private to the bundle.
 *
 * <p>{@link io.kubelix.resource.storage.StorageRESTStorageProvider} builds a generic Store per
 * resource from its strategy (kube's defaults, validation and immutable fields) with kube's printer
 * columns ({@link io.kubelix.resource.storage.StoragePrinters}). There is no attach/detach controller:
 * a volume attachment's status is what its {@code status} subresource was last given.
 */
package io.kubelix.resource.storage;
