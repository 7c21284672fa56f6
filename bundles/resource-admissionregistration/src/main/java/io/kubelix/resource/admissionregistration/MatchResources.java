package io.kubelix.resource.admissionregistration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.validation.MetadataValidators;

import java.util.ArrayList;
import java.util.List;

/** A policy's or binding's MatchResources: kube's SetDefaults_MatchResources and validateMatchResources. */
final class MatchResources {

    private MatchResources() {
    }

    /** matchPolicy Equivalent, empty namespace and object selectors, scope {@code *} on every rule. */
    static void setDefaults(JsonNode match) {
        if (!(match instanceof ObjectNode m)) {
            return;
        }
        WebhookConfigurationStrategy.putIfAbsent(m, "matchPolicy", "Equivalent");
        if (!m.hasNonNull("namespaceSelector")) {
            m.putObject("namespaceSelector");
        }
        if (!m.hasNonNull("objectSelector")) {
            m.putObject("objectSelector");
        }
        for (String rules : new String[] {"resourceRules", "excludeResourceRules"}) {
            for (JsonNode rule : m.path(rules)) {
                if (rule instanceof ObjectNode r) {
                    WebhookConfigurationStrategy.putIfAbsent(r, "scope", "*");
                }
            }
        }
    }

    static List<FieldError> validate(JsonNode match, String p) {
        List<FieldError> errs = new ArrayList<>();
        if (match == null || match.isNull() || match.isMissingNode()) {
            return errs;
        }
        errs.addAll(MetadataValidators.validateLabelSelector(match.get("namespaceSelector"), p + ".namespaceSelector"));
        errs.addAll(MetadataValidators.validateLabelSelector(match.get("objectSelector"), p + ".objectSelector"));
        JsonNode policy = match.get("matchPolicy");
        if (policy == null || policy.isNull()) {
            errs.add(FieldError.required(p + ".matchPolicy", ""));
        } else {
            errs.addAll(RuleValidation.oneOf(policy, p + ".matchPolicy", WebhookConfigurationStrategy.MATCH_POLICIES));
        }
        for (String rules : new String[] {"resourceRules", "excludeResourceRules"}) {
            int i = 0;
            for (JsonNode rule : match.path(rules)) {
                errs.addAll(RuleValidation.namedRuleWithOperations(rule, p + "." + rules + "[" + i++ + "]"));
            }
        }
        return errs;
    }
}
