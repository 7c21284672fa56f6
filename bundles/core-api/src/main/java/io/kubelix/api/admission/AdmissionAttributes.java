package io.kubelix.api.admission;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupVersionKind;
import io.kubelix.api.schema.GroupVersionResource;

/**
 * admission.Attributes: the write being admitted.
 *
 * @param operation   what is done
 * @param kind        the object's kind
 * @param resource    the resource written
 * @param subresource the subresource, or empty
 * @param namespace   the namespace, or empty for cluster-scoped resources
 * @param name        the object's name (may be empty on create with generateName)
 * @param object      the new object; mutating plugins change it in place. Null on delete.
 * @param oldObject   the current object on update and delete, null on create
 * @param dryRun      nothing will be stored; plugins with side effects must not act
 * @param context     the request
 */
public record AdmissionAttributes(Operation operation, GroupVersionKind kind, GroupVersionResource resource,
                                  String subresource, String namespace, String name, ObjectNode object,
                                  ObjectNode oldObject, boolean dryRun, RequestContext context) {
}
