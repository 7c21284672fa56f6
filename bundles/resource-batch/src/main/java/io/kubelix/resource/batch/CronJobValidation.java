package io.kubelix.resource.batch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.validation.GoSyntax;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * kube's cronjob validation (pkg/apis/batch/validation): ValidateCronJobCreate and
 * ValidateCronJobUpdate with the schedule's cron syntax, the time zone, the concurrency policy, the
 * history limits and the job template (whose selector kube generates), with kube's field paths and
 * words.
 */
final class CronJobValidation {
    /** The cronjob controller names its jobs {@code <cronjob>-<11 characters>}, and a job name is a DNS-1035 label. */
    static final int MAX_NAME_LENGTH = 63 - 11;
    static final List<String> CONCURRENCY_POLICIES = List.of("Allow", "Forbid", "Replace");
    private static final Pattern TIME_ZONE_PART = Pattern.compile("[A-Za-z.\\-_0-9+]{1,14}");

    private CronJobValidation() {
    }

    /** ValidateCronJobCreate: the spec, and a name short enough for the jobs named after it. */
    static List<FieldError> create(ObjectNode cronJob) {
        List<FieldError> errs = new ArrayList<>(spec(cronJob.path("spec"), null));
        String name = cronJob.path("metadata").path("name").asText("");
        if (name.length() > MAX_NAME_LENGTH) {
            errs.add(FieldError.invalid("metadata.name", name, "must be no more than " + MAX_NAME_LENGTH + " characters"));
        }
        return errs;
    }

    /** ValidateCronJobUpdate: the spec, with a TZ prefix allowed when the old schedule had one. */
    static List<FieldError> update(ObjectNode cronJob, ObjectNode old) {
        return spec(cronJob.path("spec"), old.path("spec"));
    }

    /** validateCronJobSpec. */
    private static List<FieldError> spec(JsonNode spec, JsonNode oldSpec) {
        List<FieldError> errs = new ArrayList<>();
        String schedule = spec.path("schedule").asText("");
        if (schedule.isEmpty()) {
            errs.add(FieldError.required("spec.schedule", ""));
        } else {
            boolean allowTZ = oldSpec != null && oldSpec.path("schedule").asText("").contains("TZ");
            errs.addAll(schedule(schedule, allowTZ, spec.hasNonNull("timeZone"), "spec.schedule"));
        }
        errs.addAll(JobValidation.nonnegative(spec, "startingDeadlineSeconds", "spec"));
        JsonNode timeZone = spec.get("timeZone");
        if (oldSpec == null || !JobValidation.same(timeZone, oldSpec.get("timeZone"))) {
            errs.addAll(timeZone(timeZone, "spec.timeZone"));
        }
        String policy = spec.path("concurrencyPolicy").asText("");
        if (policy.isEmpty()) {
            errs.add(FieldError.required("spec.concurrencyPolicy", ""));
        } else if (!CONCURRENCY_POLICIES.contains(policy)) {
            errs.add(FieldError.notSupported("spec.concurrencyPolicy", policy, CONCURRENCY_POLICIES));
        }
        errs.addAll(jobTemplate(spec.path("jobTemplate"), "spec.jobTemplate"));
        errs.addAll(JobValidation.nonnegative(spec, "successfulJobsHistoryLimit", "spec"));
        errs.addAll(JobValidation.nonnegative(spec, "failedJobsHistoryLimit", "spec"));
        return errs;
    }

    /** validateScheduleFormat: cron syntax, and the time zone in the timeZone field rather than the schedule. */
    static List<FieldError> schedule(String schedule, boolean allowTZ, boolean hasTimeZone, String path) {
        List<FieldError> errs = new ArrayList<>();
        CronSchedule.check(schedule).ifPresent(e -> errs.add(FieldError.invalid(path, schedule, e)));
        if (allowTZ && schedule.contains("TZ") && hasTimeZone) {
            errs.add(FieldError.invalid(path, schedule, "cannot use both timeZone field and TZ or CRON_TZ in schedule"));
        } else if (!allowTZ && schedule.contains("TZ")) {
            errs.add(FieldError.invalid(path, schedule, "cannot use TZ or CRON_TZ in schedule, use timeZone field instead"));
        }
        return errs;
    }

    /** validateTimeZone: unset, or an explicit zone of the IANA database. */
    static List<FieldError> timeZone(JsonNode timeZone, String path) {
        if (timeZone == null || timeZone.isNull()) {
            return List.of();
        }
        String tz = timeZone.asText();
        if (tz.isEmpty()) {
            return List.of(FieldError.invalid(path, tz, "timeZone must be nil or non-empty string"));
        }
        for (String part : tz.split("/", -1)) {
            if (part.equals(".") || part.equals("..") || part.startsWith("-") || !TIME_ZONE_PART.matcher(part).matches()) {
                return List.of(FieldError.invalid(path, tz, "unknown time zone " + tz));
            }
        }
        List<FieldError> errs = new ArrayList<>();
        if (tz.equalsIgnoreCase("Local")) {
            errs.add(FieldError.invalid(path, tz,
                    "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones"));
        }
        if (!CronSchedule.validZone(tz)) {
            errs.add(FieldError.invalid(path, tz, "unknown time zone " + tz));
        }
        return errs;
    }

    /** ValidateJobTemplateSpec: the shared job spec rules; the selector is kube's to generate. */
    private static List<FieldError> jobTemplate(JsonNode template, String path) {
        JsonNode spec = template.path("spec");
        List<FieldError> errs = new ArrayList<>(JobValidation.sharedSpec(spec, path + ".spec"));
        if (spec.hasNonNull("selector")) {
            errs.add(FieldError.invalid(path + ".spec.selector", GoSyntax.labelSelector(spec.get("selector")),
                    "`selector` will be auto-generated"));
        }
        if (spec.path("manualSelector").asBoolean(false)) {
            errs.add(FieldError.notSupported(path + ".spec.manualSelector", new GoSyntax("true"), List.of("nil", "false")));
        }
        return errs;
    }
}
