package io.kubelix.resource.admissionregistration;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.registry.StorageConversion;

/**
 * {@code v1alpha1} MutatingAdmissionPolicies and bindings kept as {@code v1beta1}, kube's storage
 * version for them: in kube 1.34 both versions have the same fields, so converting is renaming the
 * apiVersion.
 */
final class AlphaPolicyConversion implements StorageConversion {
    static final String ALPHA = AdmissionRegistrationRESTStorageProvider.GROUP + "/v1alpha1";
    static final String BETA = AdmissionRegistrationRESTStorageProvider.GROUP + "/v1beta1";

    @Override
    public ObjectNode toStorage(ObjectNode obj) {
        return withApiVersion(obj, BETA);
    }

    @Override
    public ObjectNode fromStorage(ObjectNode stored) {
        return withApiVersion(stored, ALPHA);
    }

    private static ObjectNode withApiVersion(ObjectNode obj, String apiVersion) {
        ObjectNode copy = obj.deepCopy();
        copy.put("apiVersion", apiVersion);
        return copy;
    }
}
