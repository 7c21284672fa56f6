package io.kubelix.admission.policy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.authz.AuthorizationChain;
import io.kubelix.api.informer.SharedIndexInformer;
import io.kubelix.support.admission.AdmissionAuthorizer;
import io.kubelix.support.admission.AdmissionMatcher;
import io.kubelix.support.admission.AdmissionRequests;
import io.kubelix.support.admission.VersionedAttributes;
import io.kubelix.support.cel.CelValues;

import java.util.HashMap;
import java.util.Map;

/**
 * What an admission policy's expressions see of a request (kube's {@code cel.OptionalVariableBindings}
 * and activation): {@code object}, {@code oldObject} and {@code request} in the version the policy
 * matched, {@code namespaceObject}, {@code authorizer}, and {@code params} null until a binding's
 * param is put in. CEL reads these values as they are, so they are converted once per version.
 */
final class AdmissionVariables {

    private AdmissionVariables() {
    }

    static Map<String, Object> of(VersionedAttributes v, SharedIndexInformer namespaces, AuthorizationChain authorization) {
        AdmissionAttributes a = v.attributes();
        Map<String, Object> vars = new HashMap<>();
        vars.put("object", CelValues.fromJson(v.object()));
        vars.put("oldObject", CelValues.fromJson(v.oldObject()));
        vars.put("request", CelValues.fromJson(AdmissionRequests.withoutObjects(a, v.match())));
        String namespace = a.namespace();
        ObjectNode ns = namespace == null || namespace.isEmpty() || AdmissionMatcher.isNamespace(a) ? null
                : namespaces.lister().get(namespace).map(AdmissionVariables::namespaceObject).orElse(null);
        vars.put("namespaceObject", CelValues.fromJson(ns));
        vars.put("params", CelValues.fromJson(null));
        AdmissionAuthorizer.bind(vars, a, authorization);
        return vars;
    }

    /** kube's {@code CreateNamespaceObject}: the namespace's metadata without managed fields, spec and status. */
    private static ObjectNode namespaceObject(ObjectNode ns) {
        ObjectNode copy = ns.deepCopy();
        if (copy.path("metadata") instanceof ObjectNode meta) {
            meta.remove("managedFields");
        }
        return copy;
    }
}
