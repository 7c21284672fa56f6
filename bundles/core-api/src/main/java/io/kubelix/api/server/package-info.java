/**
 * Extension points of the GenericAPIServer: links of the server chain and named health checks.
 */
@Export
@Version("1.0.0")
package io.kubelix.api.server;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
