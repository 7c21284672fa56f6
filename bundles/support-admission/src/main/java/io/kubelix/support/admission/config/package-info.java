/**
 * {@code --admission-control-config-file}: the configuration kube's {@code AdmissionConfiguration}
 * gives one admission plugin. A package of its own, so a plugin that embeds it (bnd
 * {@code -conditionalpackage}) takes in nothing else of this library.
 */
package io.kubelix.support.admission.config;
