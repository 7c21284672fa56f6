/**
 * storage.Interface: the one contract every storage backend implements, with etcd's revision semantics.
 */
@Export
@Version("1.5.0")
package io.kubelix.api.storage;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
