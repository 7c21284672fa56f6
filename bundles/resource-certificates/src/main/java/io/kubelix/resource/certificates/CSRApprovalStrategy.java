package io.kubelix.resource.certificates;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StatusStrategies;
import io.kubelix.api.request.RequestContext;

import java.time.Clock;
import java.util.List;

/**
 * The {@code approval} subresource's strategy (kube's csrApprovalStrategy), which
 * {@code kubectl certificate approve|deny} writes through: only {@code status.conditions} change,
 * and they get their times. Who may approve for a signer is the CertificateApproval admission
 * plugin's question ({@link CertificateApproval}).
 */
final class CSRApprovalStrategy implements RESTUpdateStrategy {
    private final Clock clock;

    CSRApprovalStrategy(Clock clock) {
        this.clock = clock;
    }

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        JsonNode conditions = obj.path("status").get("conditions");
        StatusStrategies.keepOnlyStatus(obj, old);
        CSRStrategy.keep(obj, old, "status");
        ObjectNode status = obj.withObjectProperty("status");
        if (conditions == null || conditions.isNull()) {
            status.remove("conditions");
        } else {
            status.set("conditions", conditions);
        }
        CSRConditions.populateTimestamps(obj, old, clock.instant());
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        return CSRValidation.validateUpdate(obj, old, CSRValidation.Update.APPROVAL);
    }
}
