package io.kubelix.resource.batch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.core.v1.PodTemplateDefaults;

/**
 * kube's batch/v1 defaulting (pkg/apis/batch/v1/defaults.go) with the core/v1 defaults of the pod
 * template each kind embeds. Each method defaults the object's {@code spec} in place; a spec or a
 * field that is not of its JSON type is left for validation.
 */
final class BatchDefaults {
    static final String NON_INDEXED = "NonIndexed";
    static final String INDEXED = "Indexed";
    static final String TERMINATING_OR_FAILED = "TerminatingOrFailed";
    static final String FAILED = "Failed";
    static final String ALLOW = "Allow";
    static final int BACKOFF_LIMIT = 6;

    private BatchDefaults() {
    }

    /**
     * SetDefaults_Job: completions and parallelism 1 when both are unset, else parallelism 1 when
     * unset; backoffLimit 6 (the largest int32 with backoffLimitPerIndex); completionMode
     * NonIndexed; suspend and manualSelector false; podReplacementPolicy TerminatingOrFailed
     * (Failed with a podFailurePolicy); a podFailurePolicy's onPodConditions status True.
     */
    static void job(ObjectNode spec) {
        if (absent(spec, "completions") && absent(spec, "parallelism")) {
            spec.put("completions", 1);
            spec.put("parallelism", 1);
        }
        if (absent(spec, "parallelism")) {
            spec.put("parallelism", 1);
        }
        if (absent(spec, "backoffLimit")) {
            spec.put("backoffLimit", absent(spec, "backoffLimitPerIndex") ? BACKOFF_LIMIT : Integer.MAX_VALUE);
        }
        if (absent(spec, "completionMode")) {
            spec.put("completionMode", NON_INDEXED);
        }
        if (absent(spec, "suspend")) {
            spec.put("suspend", false);
        }
        if (absent(spec, "manualSelector")) {
            spec.put("manualSelector", false);
        }
        boolean failurePolicy = !absent(spec, "podFailurePolicy");
        if (absent(spec, "podReplacementPolicy")) {
            spec.put("podReplacementPolicy", failurePolicy ? FAILED : TERMINATING_OR_FAILED);
        }
        for (JsonNode rule : spec.path("podFailurePolicy").path("rules")) {
            for (JsonNode pattern : rule.path("onPodConditions")) {
                if (pattern instanceof ObjectNode p && absent(p, "status")) {
                    p.put("status", "True");
                }
            }
        }
        template(spec);
    }

    /**
     * SetDefaults_CronJob: concurrencyPolicy Allow, suspend false, successfulJobsHistoryLimit 3,
     * failedJobsHistoryLimit 1; the job template's pod template gets the core/v1 defaults (the job
     * spec itself is defaulted when a job is made from it).
     */
    static void cronJob(ObjectNode spec) {
        if (absent(spec, "concurrencyPolicy") || spec.path("concurrencyPolicy").asText().isEmpty()) {
            spec.put("concurrencyPolicy", ALLOW);
        }
        if (absent(spec, "suspend")) {
            spec.put("suspend", false);
        }
        if (absent(spec, "successfulJobsHistoryLimit")) {
            spec.put("successfulJobsHistoryLimit", 3);
        }
        if (absent(spec, "failedJobsHistoryLimit")) {
            spec.put("failedJobsHistoryLimit", 1);
        }
        if (spec.get("jobTemplate") instanceof ObjectNode jobTemplate && jobTemplate.get("spec") instanceof ObjectNode jobSpec) {
            template(jobSpec);
        }
    }

    private static void template(ObjectNode spec) {
        JsonNode template = spec.get("template");
        if (template == null || template.isNull()) {
            template = spec.putObject("template");
        }
        if (template instanceof ObjectNode t) {
            PodTemplateDefaults.setPodTemplateSpecDefaults(t);
        }
    }

    static boolean absent(JsonNode o, String field) {
        JsonNode v = o.get(field);
        return v == null || v.isNull();
    }
}
