/**
 * Authorizers: whiteboard services that allow or deny a request's attributes.
 */
@Export
@Version("1.2.0")
package io.kubelix.api.authz;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
