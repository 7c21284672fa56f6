package io.kubelix.resource.batch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.core.v1.PodTemplateValidation;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.object.LabelSelectors;
import io.kubelix.api.validation.GoSyntax;
import io.kubelix.api.validation.MetadataValidators;

import java.util.ArrayList;
import java.util.List;

/**
 * kube's job validation (pkg/apis/batch/validation): ValidateJob, ValidateJobSpec and its shared
 * part validateJobSpec, the generated selector's labels, and the update rules (selector,
 * template, completions and completion mode immutable), with kube's field paths and words.
 * Objects are validated after defaulting, as kube does.
 */
final class JobValidation {
    static final String IMMUTABLE = "field is immutable";
    static final String SELECTOR_MISMATCH = "`selector` does not match template `labels`";
    static final int MAX_PARALLELISM_FOR_INDEXED_JOB = 100_000;
    /** The template fields a suspended job that has not started may change (kube's mutable scheduling directives). */
    private static final String[] SCHEDULING_DIRECTIVES = {"nodeSelector", "tolerations", "schedulingGates"};

    private JobValidation() {
    }

    /** ValidateJob: the generated selector's labels (unless manualSelector), then the spec. */
    static List<FieldError> job(ObjectNode job) {
        List<FieldError> errs = new ArrayList<>(generatedSelector(job));
        errs.addAll(jobSpec(job.path("spec"), "spec"));
        return errs;
    }

    /** ValidateJobSpec: the shared rules, a required valid selector that matches the template's labels. */
    static List<FieldError> jobSpec(JsonNode spec, String path) {
        List<FieldError> errs = new ArrayList<>(sharedSpec(spec, path));
        JsonNode selector = spec.get("selector");
        if (selector == null || selector.isNull()) {
            errs.add(FieldError.required(path + ".selector", ""));
            return errs;
        }
        errs.addAll(MetadataValidators.validateLabelSelector(selector, path + ".selector"));
        JsonNode labels = spec.path("template").path("metadata").get("labels");
        try {
            if (!LabelSelectors.matches(selector, labels)) {
                errs.add(FieldError.invalid(path + ".template.metadata.labels", GoSyntax.stringMap(labels), SELECTOR_MISMATCH));
            }
        } catch (IllegalArgumentException e) {
            // an unparsable selector is reported by validateLabelSelector
        }
        return errs;
    }

    /** validateJobSpec: what a job and a cronjob's job template share. */
    static List<FieldError> sharedSpec(JsonNode spec, String path) {
        List<FieldError> errs = new ArrayList<>();
        for (String f : new String[] {"parallelism", "completions", "activeDeadlineSeconds", "backoffLimit",
                "ttlSecondsAfterFinished", "backoffLimitPerIndex", "maxFailedIndexes"}) {
            errs.addAll(nonnegative(spec, f, path));
        }
        JsonNode mode = spec.get("completionMode");
        String completionMode = mode == null || mode.isNull() ? null : mode.asText();
        if (spec.hasNonNull("backoffLimitPerIndex") && !BatchDefaults.INDEXED.equals(completionMode)) {
            errs.add(FieldError.invalid(path + ".backoffLimitPerIndex", spec.get("backoffLimitPerIndex").asLong(),
                    "requires indexed completion mode"));
        }
        if (completionMode != null) {
            if (!completionMode.equals(BatchDefaults.NON_INDEXED) && !completionMode.equals(BatchDefaults.INDEXED)) {
                errs.add(FieldError.notSupported(path + ".completionMode", completionMode,
                        List.of(BatchDefaults.NON_INDEXED, BatchDefaults.INDEXED)));
            }
            if (completionMode.equals(BatchDefaults.INDEXED)) {
                if (!spec.hasNonNull("completions")) {
                    errs.add(FieldError.required(path + ".completions", "when completion mode is Indexed"));
                }
                long parallelism = spec.path("parallelism").asLong(0);
                if (parallelism > MAX_PARALLELISM_FOR_INDEXED_JOB) {
                    errs.add(FieldError.invalid(path + ".parallelism", parallelism, "must be less than or equal to "
                            + MAX_PARALLELISM_FOR_INDEXED_JOB + " when completion mode is Indexed"));
                }
            }
        }
        boolean failurePolicy = spec.hasNonNull("podFailurePolicy");
        JsonNode replacement = spec.get("podReplacementPolicy");
        if (replacement != null && !replacement.isNull()) {
            String r = replacement.asText();
            if (failurePolicy && !r.equals(BatchDefaults.FAILED)) {
                errs.add(FieldError.notSupported(path + ".podReplacementPolicy", r, List.of(BatchDefaults.FAILED)));
            } else if (!failurePolicy && !r.equals(BatchDefaults.FAILED) && !r.equals(BatchDefaults.TERMINATING_OR_FAILED)) {
                errs.add(FieldError.notSupported(path + ".podReplacementPolicy", r,
                        List.of(BatchDefaults.FAILED, BatchDefaults.TERMINATING_OR_FAILED)));
            }
        }
        JsonNode template = spec.path("template");
        errs.addAll(PodTemplateValidation.validatePodTemplateSpec(template, path + ".template"));
        String restart = template.path("spec").path("restartPolicy").asText("");
        String restartPath = path + ".template.spec.restartPolicy";
        if (restart.isEmpty() || restart.equals("Always")) {
            errs.add(FieldError.required(restartPath, "valid values: \"OnFailure\", \"Never\""));
        } else if (!restart.equals("OnFailure") && !restart.equals("Never")) {
            errs.add(FieldError.notSupported(restartPath, restart, List.of("OnFailure", "Never")));
        } else if (failurePolicy && !restart.equals("Never")) {
            errs.add(FieldError.invalid(restartPath, restart, "only \"Never\" is supported when podFailurePolicy is specified"));
        }
        return errs;
    }

    /**
     * validateGeneratedSelector: unless manualSelector, the template carries the job's name and uid
     * labels and the selector selects the uid.
     */
    private static List<FieldError> generatedSelector(ObjectNode job) {
        JsonNode spec = job.path("spec");
        JsonNode labels = spec.path("template").path("metadata").get("labels");
        if (spec.path("manualSelector").asBoolean(false) || labels == null || labels.isNull()) {
            return List.of();
        }
        String uid = job.path("metadata").path("uid").asText("");
        String name = job.path("metadata").path("name").asText("");
        List<FieldError> errs = new ArrayList<>();
        String path = "spec.template.metadata.labels";
        hasLabel(labels, path, JobStrategy.LEGACY_CONTROLLER_UID_LABEL, uid, errs);
        hasLabel(labels, path, JobStrategy.LEGACY_JOB_NAME_LABEL, name, errs);
        hasLabel(labels, path, JobStrategy.CONTROLLER_UID_LABEL, uid, errs);
        hasLabel(labels, path, JobStrategy.JOB_NAME_LABEL, name, errs);
        ObjectNode expected = job.objectNode();
        expected.put(JobStrategy.CONTROLLER_UID_LABEL, uid);
        JsonNode selector = spec.get("selector");
        try {
            if (selector == null || selector.isNull() || !LabelSelectors.matches(selector, expected)) {
                errs.add(FieldError.invalid("spec.selector", GoSyntax.labelSelector(selector), "`selector` not auto-generated"));
            }
        } catch (IllegalArgumentException e) {
            // reported by validateLabelSelector
        }
        return errs;
    }

    /** ValidateHasLabel. */
    private static void hasLabel(JsonNode labels, String path, String key, String expected, List<FieldError> errs) {
        JsonNode actual = labels.get(key);
        if (actual == null) {
            errs.add(FieldError.required(path + "[" + key + "]", "must be '" + expected + "'"));
        } else if (!actual.asText().equals(expected)) {
            errs.add(FieldError.invalid(path + "[" + key + "]", actual.asText(), "must be '" + expected + "'"));
        }
    }

    /** ValidateJobSpecUpdate: the spec rules, and what may not change. */
    static List<FieldError> jobUpdate(ObjectNode job, ObjectNode old) {
        JsonNode spec = job.path("spec");
        JsonNode oldSpec = old.path("spec");
        List<FieldError> errs = new ArrayList<>(jobSpec(spec, "spec"));
        errs.addAll(completionsUpdate(spec, oldSpec));
        if (!same(spec.get("selector"), oldSpec.get("selector"))) {
            errs.add(FieldError.invalid("spec.selector", GoSyntax.labelSelector(spec.get("selector")), IMMUTABLE));
        }
        boolean suspendedNotStarted = oldSpec.path("suspend").asBoolean(false) && !old.path("status").hasNonNull("startTime");
        if (!same(comparableTemplate(spec.path("template"), spec.path("template"), false),
                comparableTemplate(oldSpec.path("template"), spec.path("template"), suspendedNotStarted))) {
            errs.add(FieldError.invalid("spec.template", new GoSyntax("core.PodTemplateSpec{...}"), IMMUTABLE));
        }
        for (String f : new String[] {"completionMode", "podFailurePolicy", "backoffLimitPerIndex", "managedBy", "successPolicy"}) {
            if (!same(spec.get(f), oldSpec.get(f))) {
                JsonNode v = spec.get(f);
                Object value = v == null || v.isNull() ? new GoSyntax("null") : v.isTextual() ? v.asText()
                        : v.isNumber() ? (Object) v.asLong() : new GoSyntax(v.toString());
                errs.add(FieldError.invalid("spec." + f, value, IMMUTABLE));
            }
        }
        return errs;
    }

    /** validateCompletions: immutable, but for an Indexed job scaled with completions equal to parallelism. */
    private static List<FieldError> completionsUpdate(JsonNode spec, JsonNode oldSpec) {
        JsonNode completions = spec.get("completions");
        if (same(completions, oldSpec.get("completions"))) {
            return List.of();
        }
        boolean indexed = BatchDefaults.INDEXED.equals(spec.path("completionMode").asText(""));
        if (!indexed) {
            Object value = completions == null || completions.isNull() ? new GoSyntax("null") : (Object) completions.asLong();
            return List.of(FieldError.invalid("spec.completions", value, IMMUTABLE));
        }
        if (completions == null || completions.isNull()) {
            return List.of();
        }
        if (completions.asLong() != spec.path("parallelism").asLong(0)) {
            return List.of(FieldError.invalid("spec.completions", completions.asLong(),
                    "can only be modified in tandem with spec.parallelism"));
        }
        return List.of();
    }

    /**
     * The template as compared for immutability: when the old job is suspended and has not started,
     * the new template's labels, annotations, node selector, tolerations, scheduling gates and node
     * affinity are taken over, so only other changes count.
     */
    private static JsonNode comparableTemplate(JsonNode template, JsonNode newTemplate, boolean mutableScheduling) {
        if (!(template instanceof ObjectNode t)) {
            return template;
        }
        ObjectNode copy = t.deepCopy();
        if (!mutableScheduling) {
            return copy;
        }
        ObjectNode meta = copy.get("metadata") instanceof ObjectNode m ? m : copy.putObject("metadata");
        copyField(newTemplate.path("metadata"), meta, "labels");
        copyField(newTemplate.path("metadata"), meta, "annotations");
        ObjectNode podSpec = copy.get("spec") instanceof ObjectNode s ? s : copy.putObject("spec");
        for (String f : SCHEDULING_DIRECTIVES) {
            copyField(newTemplate.path("spec"), podSpec, f);
        }
        JsonNode newAffinity = newTemplate.path("spec").get("affinity");
        if (podSpec.get("affinity") instanceof ObjectNode affinity) {
            affinity.remove("nodeAffinity");
            if (newAffinity != null && newAffinity.has("nodeAffinity")) {
                affinity.set("nodeAffinity", newAffinity.get("nodeAffinity").deepCopy());
            }
            if (affinity.isEmpty() && (newAffinity == null || newAffinity.isNull())) {
                podSpec.remove("affinity");
            }
        } else if (newAffinity instanceof ObjectNode na && na.size() == 1 && na.has("nodeAffinity")) {
            podSpec.set("affinity", na.deepCopy());
        }
        return copy;
    }

    private static void copyField(JsonNode from, ObjectNode to, String field) {
        JsonNode v = from.get(field);
        if (v == null) {
            to.remove(field);
        } else {
            to.set(field, v.deepCopy());
        }
    }

    /** Semantic.DeepEqual of two optional values: missing, null, and empty maps and lists are alike. */
    static boolean same(JsonNode a, JsonNode b) {
        return normalized(a).equals(normalized(b));
    }

    private static JsonNode normalized(JsonNode v) {
        if (v == null || v.isNull() || v.isMissingNode() || (v.isContainerNode() && v.isEmpty())) {
            return NullNode.getInstance();
        }
        if (v instanceof ObjectNode o) {
            ObjectNode copy = o.objectNode();
            o.fields().forEachRemaining(e -> {
                JsonNode n = normalized(e.getValue());
                if (!n.isNull()) {
                    copy.set(e.getKey(), n);
                }
            });
            return copy.isEmpty() ? NullNode.getInstance() : copy;
        }
        if (v.isArray()) {
            com.fasterxml.jackson.databind.node.ArrayNode copy = ((com.fasterxml.jackson.databind.node.ArrayNode) v).arrayNode();
            v.forEach(e -> copy.add(normalized(e)));
            return copy;
        }
        return v;
    }

    /** ValidateNonnegativeField of {@code parent.field} when it is a number. */
    static List<FieldError> nonnegative(JsonNode parent, String field, String path) {
        JsonNode v = parent.get(field);
        if (v == null || !v.isNumber()) {
            return List.of();
        }
        return MetadataValidators.validateNonnegative(v.asLong(), path + "." + field);
    }
}
