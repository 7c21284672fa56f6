/**
 * Shared logic of core/v1 types that other API groups embed, as kube keeps it in
 * pkg/apis/core/v1 (defaults) and pkg/apis/core/validation: the PodTemplateSpec that apps/v1
 * workloads, batch/v1 jobs and core/v1 pods and replication controllers carry, and the tolerations
 * that pods and node.k8s.io RuntimeClasses carry. Resource bundles
 * cannot share code with one another, so it lives here, versioned on its own, and works on the
 * JSON form of the v1 types.
 */
@Export
@Version("1.2.0")
package io.kubelix.api.core.v1;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
