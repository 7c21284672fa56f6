/**
 * Syntax checks shared by the generic Store and resource bundles, as apimachinery's
 * util/validation: DNS-1123 names, qualified names, label values. Each returns the problems
 * found, worded as kube-apiserver words them; an empty list means valid. IP and CIDR parsing is not
 * here but in the support-net library each plugin embeds (2.0 removed IPAddresses).
 */
@Export
@Version("2.0.0")
package io.kubelix.api.validation;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
