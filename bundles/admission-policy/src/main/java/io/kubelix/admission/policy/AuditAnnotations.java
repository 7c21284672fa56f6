package io.kubelix.admission.policy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * kube's {@code auditAnnotationCollector}: the audit annotations one policy's bindings and params
 * made for a request, published on the request's audit events as {@code <policy>/<key>}; the
 * distinct values several bindings or params gave one key are joined with {@code ", "}. Also the
 * {@code validation.policy.admission.k8s.io/validation_failure} annotation of the {@code Audit}
 * validation action.
 */
final class AuditAnnotations {
    static final String VALIDATION_FAILURE = "validation.policy.admission.k8s.io/validation_failure";

    private final Map<String, List<String>> values = new LinkedHashMap<>();

    /** Adds a value for a key, once: the same value from another binding is not repeated. */
    void add(String key, String value) {
        List<String> v = values.computeIfAbsent(key, k -> new ArrayList<>());
        if (!v.contains(value)) {
            v.add(value);
        }
    }

    /** Puts the collected annotations on the request's audit events. */
    void publish(String policy, AdmissionAttributes a) {
        values.forEach((key, v) -> a.context().addAuditAnnotation(policy + "/" + key, String.join(", ", v)));
    }

    /** The value kube gives {@link #VALIDATION_FAILURE}: a JSON list of the one failure. */
    static String validationFailure(String message, String policy, String binding, int expressionIndex,
                                    JsonNode validationActions) {
        ObjectNode failure = JsonNodeFactory.instance.objectNode();
        failure.put("message", message).put("policy", policy).put("binding", binding)
                .put("expressionIndex", expressionIndex);
        failure.set("validationActions", validationActions.deepCopy());
        ArrayNode list = JsonNodeFactory.instance.arrayNode();
        list.add(failure);
        return list.toString();
    }
}
