package io.kubelix.examples.admission;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.Operation;
import io.kubelix.api.admission.ValidatingAdmissionPlugin;
import io.kubelix.api.errors.StatusException;
import org.osgi.service.component.annotations.Component;

/**
 * A validating admission plugin: a create or update of any resource whose object carries the
 * label {@code kubelix.io/forbidden=true} is refused with 403 Forbidden, worded as kube-apiserver
 * words admission denials: {@code configmaps "x" is forbidden: ...}. Registered as a whiteboard
 * service; Kubelix's admission chain runs it, after every mutating plugin, as soon as the bundle
 * starts, and stops running it when the bundle stops.
 */
@Component(service = ValidatingAdmissionPlugin.class)
public final class DenyForbiddenLabel implements ValidatingAdmissionPlugin {
    static final String LABEL = "kubelix.io/forbidden";

    @Override
    public String name() {
        return "DenyForbiddenLabel";
    }

    /** Deletes and connects carry no new object to look at. */
    @Override
    public boolean handles(Operation operation) {
        return operation == Operation.CREATE || operation == Operation.UPDATE;
    }

    @Override
    public void validate(AdmissionAttributes a) {
        JsonNode label = a.object() == null ? null : a.object().path("metadata").path("labels").get(LABEL);
        if (label != null && "true".equals(label.asText())) {
            throw StatusException.forbidden(a.resource().groupResource(), a.name(),
                    "the label " + LABEL + "=true is not allowed (admission plugin " + name() + ")");
        }
    }
}
