/**
 * Authenticators: whiteboard services that turn a request's credentials into a user; and the
 * service account token issuer the TokenRequest API calls.
 */
@Export
@Version("1.3.1")
package io.kubelix.api.authn;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
