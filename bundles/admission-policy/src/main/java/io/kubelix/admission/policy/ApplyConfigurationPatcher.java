package io.kubelix.admission.policy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.schema.ResourceSchema;
import io.kubelix.api.schema.StructuredMergeDiff;
import io.kubelix.support.cel.CelValues;

import java.util.List;
import java.util.Map;

/**
 * kube's ApplyConfiguration mutation ({@code patch.applyConfigPatcher}): the expression's
 * {@code Object{...}} is merged into the object by server-side apply's merge, under the schema of the
 * object's kind (list types and map keys from it), after kube's check that it sets no atomic list,
 * map or struct, which would drop the fields it leaves out.
 */
final class ApplyConfigurationPatcher {

    private ApplyConfigurationPatcher() {
    }

    /**
     * The object merged with the configuration; {@code object} is not changed.
     *
     * @param schema the schema of the object's kind, or null to merge as kube does an object without one
     * @throws CompiledPolicy.PolicyException with kube's message when the configuration does not fit
     */
    static ObjectNode patch(StructuredMergeDiff smd, ResourceSchema schema, ObjectNode object, Object result)
            throws CompiledPolicy.PolicyException {
        if (!(result instanceof Map<?, ?>)) {
            throw new CompiledPolicy.PolicyException("unsupported return type from ApplyConfiguration expression: "
                    + CompiledPolicy.celType(result));
        }
        JsonNode configuration = CelValues.toJson(result);
        // kube gives the configuration the object's apiVersion and kind before converting it
        ObjectNode patch = (ObjectNode) configuration;
        for (String typeField : new String[] {"apiVersion", "kind"}) {
            if (object.hasNonNull(typeField)) {
                patch.set(typeField, object.get(typeField));
            }
        }
        List<String> atomics = smd.atomicPaths(schema, patch);
        if (!atomics.isEmpty()) {
            throw new CompiledPolicy.PolicyException("error applying patch: invalid ApplyConfiguration: may not mutate "
                    + "atomic arrays, maps or structs: " + String.join(", ", atomics));
        }
        try {
            return smd.merge(schema, object, patch);
        } catch (IllegalArgumentException e) {
            throw new CompiledPolicy.PolicyException("error applying patch: failed to convert patch object to typed object: "
                    + e.getMessage());
        }
    }
}
