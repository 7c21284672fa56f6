package io.kubelix.resource.batch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.object.LabelSelectors;
import io.kubelix.api.registry.HumanDuration;
import io.kubelix.api.registry.TableColumn;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The server-side Table columns of jobs and cronjobs, as kube's printers
 * (pkg/printers/internalversion/printers.go) define them: the same names, types, priorities
 * ({@code -o wide} shows the priority 1 columns) and cells.
 */
final class BatchPrinters {
    static final String CONTAINERS_DESCRIPTION = "Names of each container in the template.";
    static final String IMAGES_DESCRIPTION = "Images referenced by each container in the template.";
    static final String SELECTOR_DESCRIPTION = "A label query over pods that should match the pod count. Normally, the "
            + "system sets this field for you. More info: "
            + "https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors";

    private BatchPrinters() {
    }

    /** NAME, STATUS, COMPLETIONS, DURATION, AGE; wide: CONTAINERS, IMAGES, SELECTOR. */
    static List<TableColumn> jobColumns() {
        return List.of(TableColumn.nameColumn(),
                column("Status", "string", "Status of the job.", 0, BatchPrinters::jobStatus),
                column("Completions", "string", "The number of pods which reached phase Succeeded. The value increases "
                        + "monotonically for a given spec. However, it may decrease in reaction to scale down of "
                        + "elastic indexed jobs.", 0, BatchPrinters::completions),
                column("Duration", "string", "Time required to complete the job.", 0, BatchPrinters::duration),
                TableColumn.ageColumn(),
                column("Containers", "string", CONTAINERS_DESCRIPTION, 1, o -> containers(o.path("spec"), "name")),
                column("Images", "string", IMAGES_DESCRIPTION, 1, o -> containers(o.path("spec"), "image")),
                column("Selector", "string", SELECTOR_DESCRIPTION, 1, o -> selector(o.path("spec").get("selector"))));
    }

    /** NAME, SCHEDULE, TIMEZONE, SUSPEND, ACTIVE, LAST SCHEDULE, AGE; wide: CONTAINERS, IMAGES, SELECTOR. */
    static List<TableColumn> cronJobColumns() {
        return List.of(TableColumn.nameColumn(),
                column("Schedule", "string", "The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.", 0,
                        o -> o.path("spec").path("schedule").asText("")),
                column("Timezone", "string", "The time zone name for the given schedule, see "
                        + "https://en.wikipedia.org/wiki/List_of_tz_database_time_zones.", 0,
                        o -> o.path("spec").hasNonNull("timeZone") ? o.path("spec").path("timeZone").asText() : "<none>"),
                column("Suspend", "boolean", "This flag tells the controller to suspend subsequent executions, it does "
                        + "not apply to already started executions.  Defaults to false.", 0, BatchPrinters::suspend),
                column("Active", "integer", "A list of pointers to currently running jobs.", 0,
                        o -> (long) o.path("status").path("active").size()),
                column("Last Schedule", "string", "Information when was the last time the job was successfully scheduled.",
                        0, BatchPrinters::lastSchedule),
                TableColumn.ageColumn(),
                column("Containers", "string", CONTAINERS_DESCRIPTION, 1,
                        o -> containers(o.path("spec").path("jobTemplate").path("spec"), "name")),
                column("Images", "string", IMAGES_DESCRIPTION, 1,
                        o -> containers(o.path("spec").path("jobTemplate").path("spec"), "image")),
                column("Selector", "string", SELECTOR_DESCRIPTION, 1,
                        o -> selector(o.path("spec").path("jobTemplate").path("spec").get("selector"))));
    }

    private static TableColumn column(String name, String type, String description, int priority,
                                      Function<ObjectNode, Object> cell) {
        return new TableColumn(name, type, "", description, priority, cell);
    }

    /** Complete, Failed, Terminating, Suspended, FailureTarget, SuccessCriteriaMet or Running, in kube's order. */
    static String jobStatus(ObjectNode job) {
        JsonNode conditions = job.path("status").path("conditions");
        if (hasCondition(conditions, "Complete")) {
            return "Complete";
        }
        if (hasCondition(conditions, "Failed")) {
            return "Failed";
        }
        if (job.path("metadata").hasNonNull("deletionTimestamp")) {
            return "Terminating";
        }
        for (String type : new String[] {"Suspended", "FailureTarget", "SuccessCriteriaMet"}) {
            if (hasCondition(conditions, type)) {
                return type;
            }
        }
        return "Running";
    }

    private static boolean hasCondition(JsonNode conditions, String type) {
        for (JsonNode c : conditions) {
            if (type.equals(c.path("type").asText()) && "True".equals(c.path("status").asText())) {
                return true;
            }
        }
        return false;
    }

    /** {@code succeeded/completions}, or {@code succeeded/1 of parallelism} for a work queue. */
    static String completions(ObjectNode job) {
        JsonNode spec = job.path("spec");
        long succeeded = job.path("status").path("succeeded").asLong(0);
        if (spec.hasNonNull("completions")) {
            return succeeded + "/" + spec.path("completions").asLong();
        }
        long parallelism = spec.path("parallelism").asLong(0);
        return parallelism > 1 ? succeeded + "/1 of " + parallelism : succeeded + "/1";
    }

    /** Empty before the job starts, the time since its start while it runs, its run time once complete. */
    static Object duration(ObjectNode job) {
        Instant start = time(job.path("status").path("startTime"));
        if (start == null) {
            return "";
        }
        Instant completion = time(job.path("status").path("completionTime"));
        return completion == null ? start : HumanDuration.format(Duration.between(start, completion));
    }

    private static String suspend(ObjectNode cronJob) {
        JsonNode suspend = cronJob.path("spec").get("suspend");
        if (suspend == null || suspend.isNull()) {
            return "<unset>";
        }
        return suspend.asBoolean() ? "True" : "False";
    }

    private static Object lastSchedule(ObjectNode cronJob) {
        Instant last = time(cronJob.path("status").path("lastScheduleTime"));
        return last == null ? "<none>" : last;
    }

    private static Instant time(JsonNode v) {
        if (!v.isTextual()) {
            return null;
        }
        try {
            return Instant.parse(v.asText());
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** layoutContainerCells: the pod template's container names or images, comma-separated. */
    private static String containers(JsonNode jobSpec, String field) {
        List<String> out = new ArrayList<>();
        jobSpec.path("template").path("spec").path("containers").forEach(c -> out.add(c.path(field).asText("")));
        return String.join(",", out);
    }

    /** metav1.FormatLabelSelector: {@code <none>} for a missing or empty selector. */
    private static String selector(JsonNode selector) {
        try {
            String s = LabelSelectors.format(selector);
            return s.isEmpty() ? "<none>" : s;
        } catch (IllegalArgumentException e) {
            return "<error>";
        }
    }
}
