/**
 * IP addresses and CIDRs as kube reads them, never looking a name up: {@link io.kubelix.support.net.IP}
 * (netutils.ParseIPSloppy and Go's net.ParseIP, families, Go's text form), {@link io.kubelix.support.net.CIDR}
 * (ParseCIDRSloppy and netip.ParsePrefix) and {@link io.kubelix.support.net.IPValidation} (apimachinery's
 * IsValidIP, IsValidCIDR and ValidateEndpointIP with their messages). Embedded privately by each plugin that
 * needs it (bnd {@code -conditionalpackage: io.kubelix.support.*}); not a bundle.
 */
package io.kubelix.support.net;
