/**
 * What the admission plugins configured through the API share: {@link io.kubelix.support.admission.AdmissionMatcher}
 * (rules and selectors) and {@link io.kubelix.support.admission.AdmissionRequests} (the AdmissionRequest of a
 * request). Embedded privately by each plugin that needs it (bnd {@code -conditionalpackage: io.kubelix.support.*});
 * not a bundle.
 */
package io.kubelix.support.admission;
