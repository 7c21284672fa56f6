/**
 * Go's {@code time.Duration} as kube reads and writes it: {@link io.kubelix.support.time.GoDuration}
 * ({@code time.ParseDuration} with Go's error messages, {@code Duration.String()}). Embedded privately by
 * each plugin that needs it (bnd {@code -conditionalpackage: io.kubelix.support.*}); not a bundle.
 */
package io.kubelix.support.time;
