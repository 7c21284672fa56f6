package io.kubelix.api.admission;

/**
 * admission.MutationInterface: may change {@link AdmissionAttributes#object()} in place before
 * validation. Mutating plugins are whiteboard services run in {@code service.ranking} order,
 * all before any validating plugin. Throwing a StatusException rejects the request.
 */
public interface MutatingAdmissionPlugin extends AdmissionPlugin {
    void admit(AdmissionAttributes attributes);
}
