/**
 * Services and endpoints. Services are served through {@link io.kubelix.resource.core.service.ServiceREST},
 * which takes and gives back cluster IPs and node ports ({@link io.kubelix.resource.core.service.ServiceAllocators},
 * persistent bitmaps in {@link io.kubelix.resource.core.service.RangeAllocator}) around the generic Store's
 * writes; {@link io.kubelix.resource.core.service.ServiceRepair} reconciles them with the services on
 * start, and the ranges come from {@link io.kubelix.resource.core.service.ServiceNetworkConfig}.
 */
package io.kubelix.resource.core.service;
