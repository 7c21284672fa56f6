/**
 * Extension points of the GenericAPIServer: links of the server chain (with the request and response they see), named health checks and post-start hooks, and connections upgraded to another protocol.
 */
@Export
@Version("2.1.0")
package io.kubelix.api.server;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
