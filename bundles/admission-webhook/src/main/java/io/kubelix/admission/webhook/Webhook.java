package io.kubelix.admission.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.support.admission.MatchConditions;

/**
 * One webhook of a mutating or validating webhook configuration (kube's {@code WebhookAccessor}),
 * as stored: the resource plugin has defaulted and validated it.
 *
 * @param uid           {@code <configuration>/<webhook>/<index>}: tells webhooks apart across
 *                      configurations, for reinvocation
 * @param configuration the configuration's name
 * @param spec          the webhook as the configuration holds it
 * @param conditions    its {@code matchConditions}, compiled
 */
record Webhook(String uid, String configuration, JsonNode spec, MatchConditions conditions) {

    Webhook(String uid, String configuration, JsonNode spec) {
        this(uid, configuration, spec, MatchConditions.compile(spec.path("matchConditions")));
    }

    String name() {
        return spec.path("name").asText();
    }

    JsonNode clientConfig() {
        return spec.path("clientConfig");
    }

    JsonNode rules() {
        return spec.path("rules");
    }

    /** {@code failurePolicy: Ignore}: a failed call lets the request through. */
    boolean ignoresFailures() {
        return "Ignore".equals(spec.path("failurePolicy").asText("Fail"));
    }

    boolean matchesEquivalent() {
        return !"Exact".equals(spec.path("matchPolicy").asText("Equivalent"));
    }

    JsonNode namespaceSelector() {
        return spec.path("namespaceSelector");
    }

    JsonNode objectSelector() {
        return spec.path("objectSelector");
    }

    /** {@code None} and {@code NoneOnDryRun} may be called for dry-run requests; {@code Some} and {@code Unknown} not. */
    boolean supportsDryRun() {
        String s = spec.path("sideEffects").asText("Unknown");
        return s.equals("None") || s.equals("NoneOnDryRun");
    }

    int timeoutSeconds() {
        return spec.path("timeoutSeconds").asInt(10);
    }

    boolean reinvokedIfNeeded() {
        return "IfNeeded".equals(spec.path("reinvocationPolicy").asText("Never"));
    }
}
