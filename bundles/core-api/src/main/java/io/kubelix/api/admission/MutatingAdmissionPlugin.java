package io.kubelix.api.admission;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * admission.MutationInterface: may change {@link AdmissionAttributes#object()} in place before
 * validation. Mutating plugins are whiteboard services run in {@code service.ranking} order,
 * all before any validating plugin. Throwing a StatusException rejects the request.
 */
@ConsumerType
public interface MutatingAdmissionPlugin extends AdmissionPlugin {
    void admit(AdmissionAttributes attributes);
}
