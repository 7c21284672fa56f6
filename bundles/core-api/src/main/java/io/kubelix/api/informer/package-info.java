/**
 * Informers, listers and work queues (client-go's {@code tools/cache} and {@code util/workqueue}):
 * the machinery the server's own control loops, and plugins' controllers, are built on. A
 * {@link io.kubelix.api.informer.SharedInformerFactory} service hands out one informer per group,
 * version and resource, shared by every consumer in the server; it lists and watches the resource
 * in process, keeps the objects in an indexed cache, and tells handlers what changed. A controller
 * puts keys from those handlers on a {@link io.kubelix.api.informer.RateLimitingQueue} and processes
 * them with workers ({@link io.kubelix.api.informer.SharedInformerFactory#runWorkers}) that read the
 * cache through a {@link io.kubelix.api.informer.GenericLister}.
 */
@Export
@Version("1.1.0")
package io.kubelix.api.informer;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
