package io.kubelix.support.admission.guard;

import io.kubelix.api.admission.AdmissionAttributes;

/**
 * The guard kube's built-in admission plugins open with ({@code shouldIgnore}): a plugin that
 * defaults or checks objects of one resource acts only on writes of that resource's object itself,
 * not of a subresource, and only when the request carries an object. Which operations it sees is
 * the plugin's {@code handles}. In its own package so that plugins embed it without the CEL the
 * rest of support-admission needs.
 */
public final class ObjectWrites {
    private ObjectWrites() {
    }

    /** Whether {@code a} writes an object of {@code resource} in {@code group} ("" for the core group) itself. */
    public static boolean of(AdmissionAttributes a, String group, String resource) {
        return a.resource().group().equals(group) && a.resource().resource().equals(resource) && a.subresource().isEmpty()
                && a.object() != null;
    }
}
