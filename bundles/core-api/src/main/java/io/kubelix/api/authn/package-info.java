/**
 * Authenticators: whiteboard services that turn a request's credentials into a user.
 */
@Export
@Version("1.0.0")
package io.kubelix.api.authn;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
