/**
 * Extension points of the GenericAPIServer: links of the server chain (with the request and response they see), named health checks and post-start hooks.
 */
@Export
@Version("2.0.0")
package io.kubelix.api.server;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
