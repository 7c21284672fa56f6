package io.kubelix.api.admission;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupVersionKind;
import io.kubelix.api.schema.GroupVersionResource;

/**
 * admission.Attributes: the write being admitted.
 *
 * @param operation    what is done
 * @param kind         the object's kind, in the version of the request
 * @param resource     the resource written, in the version of the request
 * @param subresource  the subresource, or empty
 * @param namespace    the namespace, or empty for cluster-scoped resources
 * @param name         the object's name (may be empty on create with generateName)
 * @param object       the new object; mutating plugins change it in place. Null on delete.
 * @param oldObject    the current object on update and delete, null on create
 * @param dryRun       nothing will be stored; plugins with side effects must not act
 * @param context      the request
 * @param options      the operation's options as kube hands them to admission: a
 *                     {@code meta.k8s.io/v1} {@code CreateOptions}, {@code UpdateOptions} (for
 *                     updates and patches) or {@code DeleteOptions}; null when unknown
 * @param reinvocation this request's mutating admission state, shared by both passes
 */
public record AdmissionAttributes(Operation operation, GroupVersionKind kind, GroupVersionResource resource,
                                  String subresource, String namespace, String name, ObjectNode object,
                                  ObjectNode oldObject, boolean dryRun, RequestContext context, ObjectNode options,
                                  ReinvocationContext reinvocation) {

    public AdmissionAttributes {
        reinvocation = reinvocation == null ? new ReinvocationContext() : reinvocation;
    }

    /** Attributes without options, with a fresh reinvocation context (the 1.0 shape). */
    public AdmissionAttributes(Operation operation, GroupVersionKind kind, GroupVersionResource resource,
                               String subresource, String namespace, String name, ObjectNode object,
                               ObjectNode oldObject, boolean dryRun, RequestContext context) {
        this(operation, kind, resource, subresource, namespace, name, object, oldObject, dryRun, context, null, null);
    }
}
