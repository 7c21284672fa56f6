/**
 * Errors that reach the client as a metav1.Status, with kube-apiserver's codes and reasons.
 */
@Export
@Version("1.2.1")
package io.kubelix.api.errors;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
