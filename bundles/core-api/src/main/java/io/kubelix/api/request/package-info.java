/**
 * What the handler chain knows about a request: its RequestInfo, the authenticated user, and the context handed to storage and strategies.
 */
@Export
@Version("1.1.0")
package io.kubelix.api.request;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
