/**
 * Group, version, kind and resource names, as Kubernetes' schema package spells them.
 */
@Export
@Version("1.5.0")
package io.kubelix.api.schema;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
