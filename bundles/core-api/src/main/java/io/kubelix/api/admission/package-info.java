/**
 * Admission plugins: mutating and validating steps run by the generic Store before an object is written.
 */
@Export
@Version("1.2.0")
package io.kubelix.api.admission;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
