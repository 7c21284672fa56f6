/**
 * The REST layer: what a resource bundle registers (RESTStorageProvider) and the strategies that parameterise the generic Store.
 */
@Export
@Version("1.8.0")
package io.kubelix.api.registry;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
