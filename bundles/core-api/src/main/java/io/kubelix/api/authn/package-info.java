/**
 * Authenticators: whiteboard services that turn a request's credentials into a user, with the
 * sources that say whom they trust (published for extension API servers); and the service
 * account token issuer the TokenRequest API calls.
 */
@Export
@Version("1.4.0")
package io.kubelix.api.authn;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
