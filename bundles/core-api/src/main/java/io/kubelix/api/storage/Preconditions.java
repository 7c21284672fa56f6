package io.kubelix.api.storage;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Conditions a write requires of the current object (metav1.Preconditions): a null field is not
 * checked.
 */
public record Preconditions(String uid, String resourceVersion) {
    public static final Preconditions NONE = new Preconditions(null, null);

    /**
     * Checks the conditions against the current object.
     *
     * @throws StorageException {@code RESOURCE_VERSION_CONFLICTS} with kube-apiserver's message
     */
    public void check(String key, ObjectNode current, long currentRevision) {
        if (uid != null) {
            String actual = current.path("metadata").path("uid").asText("");
            if (!uid.equals(actual)) {
                throw StorageException.conflict(key, currentRevision,
                        "Precondition failed: UID in precondition: " + uid + ", UID in object meta: " + actual);
            }
        }
        if (resourceVersion != null) {
            String actual = Long.toString(currentRevision);
            if (!resourceVersion.equals(actual)) {
                throw StorageException.conflict(key, currentRevision,
                        "Precondition failed: ResourceVersion in precondition: " + resourceVersion
                                + ", ResourceVersion in object meta: " + actual);
            }
        }
    }
}
