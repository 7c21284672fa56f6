/**
 * The unstructured object model: every object is a Jackson tree with typed accessors for apiVersion, kind and metadata.
 */
@Export
@Version("1.1.0")
package io.kubelix.api.object;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
