/**
 * Extension points of the GenericAPIServer: links of the server chain, named health checks and post-start hooks.
 */
@Export
@Version("1.2.0")
package io.kubelix.api.server;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
