package io.kubelix.resource.flowcontrol;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.api.errors.FieldError;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * ValidateFlowSchemaStatus and ValidatePriorityLevelConfigurationStatus, which are the same: each
 * condition has a type, and no type appears twice.
 */
final class StatusValidation {

    private StatusValidation() {
    }

    static List<FieldError> conditions(JsonNode status) {
        List<FieldError> errs = new ArrayList<>();
        JsonNode conditions = status.path("conditions");
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < conditions.size(); i++) {
            String type = conditions.get(i).path("type").asText("");
            String path = "status.conditions[" + i + "].type";
            if (!seen.add(type)) {
                errs.add(FieldError.duplicate(path, type));
            }
            if (type.isEmpty()) {
                errs.add(FieldError.required(path, "must not be empty"));
            }
        }
        return errs;
    }
}
