package io.kubelix.resource.batch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StatusStrategies;
import io.kubelix.api.request.RequestContext;

import java.util.List;

/**
 * kube's jobStrategy: a new job starts with an empty status, every write is defaulted (kube
 * defaults every decoded body), the main resource keeps the stored status, and unless
 * {@code manualSelector} is true the job gets kube's generated selector: its template is labelled
 * with the job's name and uid and the selector selects the uid. A job without labels takes its
 * template's, as kube's defaulting gives them when the stored job is read back.
 */
final class JobStrategy implements RESTCreateStrategy, RESTUpdateStrategy {
    static final String CONTROLLER_UID_LABEL = "batch.kubernetes.io/controller-uid";
    static final String JOB_NAME_LABEL = "batch.kubernetes.io/job-name";
    static final String LEGACY_CONTROLLER_UID_LABEL = "controller-uid";
    static final String LEGACY_JOB_NAME_LABEL = "job-name";

    @Override
    public void prepareForCreate(RequestContext ctx, ObjectNode obj) {
        obj.putObject("status");
        BatchDefaults.job(BatchSpecs.spec(obj));
    }

    /**
     * kube generates the selector in Validate, once the Store has given the job its uid; the job's
     * labels are defaulted from the template's after that.
     */
    @Override
    public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
        if (obj.get("spec") instanceof ObjectNode spec && !spec.path("manualSelector").asBoolean(false)) {
            generateSelector(obj, spec);
        }
        defaultLabels(obj);
        return JobValidation.job(obj);
    }

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        StatusStrategies.resetStatus(obj, old);
        BatchDefaults.job(BatchSpecs.spec(obj));
        defaultLabels(obj);
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        return JobValidation.jobUpdate(obj, old);
    }

    /** generateSelector: the four name and uid labels on the template (unless set), the uid in the selector. */
    static void generateSelector(ObjectNode job, ObjectNode spec) {
        String name = job.path("metadata").path("name").asText("");
        String uid = job.path("metadata").path("uid").asText("");
        ObjectNode template = BatchSpecs.object(spec, "template");
        ObjectNode meta = template == null ? null : BatchSpecs.object(template, "metadata");
        ObjectNode labels = meta == null ? null : BatchSpecs.object(meta, "labels");
        if (labels != null) {
            putIfAbsent(labels, LEGACY_JOB_NAME_LABEL, name);
            putIfAbsent(labels, JOB_NAME_LABEL, name);
            putIfAbsent(labels, LEGACY_CONTROLLER_UID_LABEL, uid);
            putIfAbsent(labels, CONTROLLER_UID_LABEL, uid);
        }
        ObjectNode selector = BatchSpecs.object(spec, "selector");
        ObjectNode matchLabels = selector == null ? null : BatchSpecs.object(selector, "matchLabels");
        if (matchLabels != null) {
            putIfAbsent(matchLabels, CONTROLLER_UID_LABEL, uid);
        }
    }

    /** SetDefaults_Job's labels: a job without labels takes its template's. */
    private static void defaultLabels(ObjectNode job) {
        if (!(job.get("metadata") instanceof ObjectNode meta) || !meta.path("labels").isEmpty()) {
            return;
        }
        JsonNode templateLabels = job.path("spec").path("template").path("metadata").path("labels");
        if (templateLabels.isObject() && !templateLabels.isEmpty()) {
            meta.set("labels", templateLabels.deepCopy());
        }
    }

    private static void putIfAbsent(ObjectNode o, String key, String value) {
        if (!o.has(key)) {
            o.put(key, value);
        }
    }
}
