package io.kubelix.api.admission;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * admission.ValidationInterface: checks a write after mutation and must not change it.
 * Throwing a StatusException (usually 403 Forbidden or 422 Invalid) rejects the request.
 */
@ConsumerType
public interface ValidatingAdmissionPlugin extends AdmissionPlugin {
    void validate(AdmissionAttributes attributes);
}
