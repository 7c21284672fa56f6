/** The ValidatingAdmissionPolicy admission plugin. Exports nothing. */
package io.kubelix.admission.policy;
