package io.kubelix.resource.batch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.kubelix.resource.batch.Fixtures.create;
import static io.kubelix.resource.batch.Fixtures.cronJob;
import static io.kubelix.resource.batch.Fixtures.json;
import static io.kubelix.resource.batch.Fixtures.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CronJobStrategyTest {
    private final CronJobStrategy strategy = new CronJobStrategy();

    @Test
    void aNewCronJobGetsKubesDefaults() {
        ObjectNode c = cronJob("hello", "*/1 * * * *");
        assertEquals(List.of(), create(strategy, c));

        JsonNode spec = c.path("spec");
        assertEquals("Allow", spec.path("concurrencyPolicy").asText());
        assertEquals(false, spec.path("suspend").asBoolean(true));
        assertEquals(3, spec.path("successfulJobsHistoryLimit").asInt());
        assertEquals(1, spec.path("failedJobsHistoryLimit").asInt());
        JsonNode jobSpec = spec.path("jobTemplate").path("spec");
        assertTrue(jobSpec.path("backoffLimit").isMissingNode(), "the job spec is defaulted when a job is made");
        assertEquals("ClusterFirst", jobSpec.path("template").path("spec").path("dnsPolicy").asText());
    }

    @Test
    void descriptorsAndNamesAreValidSchedules() {
        for (String schedule : List.of("@hourly", "@daily", "@every 1h30m", "0 0 * * MON-FRI", "15 3 1 jan,jul *",
                "*/5 9-17 * * ?", "0 12 * * sun")) {
            assertEquals(List.of(), create(strategy, cronJob("c", schedule)), schedule);
        }
    }

    @Test
    void aBadScheduleIsInvalidWithTheCronParsersWords() {
        assertEquals(List.of("spec.schedule: Invalid value: \"bad\": expected exactly 5 fields, found 1: [bad]"),
                create(strategy, cronJob("c", "bad")));
        assertEquals(List.of("spec.schedule: Invalid value: \"61 * * * *\": end of range (61) above maximum (59): 61"),
                create(strategy, cronJob("c", "61 * * * *")));
        assertEquals(List.of("spec.schedule: Invalid value: \"@sometimes\": unrecognized descriptor: @sometimes"),
                create(strategy, cronJob("c", "@sometimes")));
        assertEquals(List.of("spec.schedule: Invalid value: \"* * * * 7\": end of range (7) above maximum (6): 7"),
                create(strategy, cronJob("c", "* * * * 7")));
        assertEquals(List.of("spec.schedule: Invalid value: \"TZ=UTC 0 * * * *\": cannot use TZ or CRON_TZ in schedule, "
                + "use timeZone field instead"), create(strategy, cronJob("c", "TZ=UTC 0 * * * *")));
        ObjectNode empty = cronJob("c", "");
        assertEquals(List.of("spec.schedule: Required value"), create(strategy, empty));
    }

    @Test
    void timeZoneMustBeAnIanaZone() {
        ObjectNode ok = cronJob("c", "0 * * * *");
        ((ObjectNode) ok.path("spec")).put("timeZone", "Europe/Berlin");
        assertEquals(List.of(), create(strategy, ok));

        ObjectNode bad = cronJob("c", "0 * * * *");
        ((ObjectNode) bad.path("spec")).put("timeZone", "Mars/Olympus");
        assertEquals(List.of("spec.timeZone: Invalid value: \"Mars/Olympus\": unknown time zone Mars/Olympus"),
                create(strategy, bad));

        ObjectNode local = cronJob("c", "0 * * * *");
        ((ObjectNode) local.path("spec")).put("timeZone", "Local");
        assertEquals(List.of("spec.timeZone: Invalid value: \"Local\": timeZone must be an explicit time zone as defined in "
                + "https://www.iana.org/time-zones"), create(strategy, local));
    }

    @Test
    void policyNameAndJobTemplateRules() {
        ObjectNode c = cronJob("a-cronjob-name-that-is-far-too-long-for-the-jobs-it-makes", "0 * * * *");
        ((ObjectNode) c.path("spec")).put("concurrencyPolicy", "Sometimes");
        ((ObjectNode) c.path("spec").path("jobTemplate").path("spec")).set("selector", json("{'matchLabels':{'a':'b'}}"));
        ((ObjectNode) c.path("spec").path("jobTemplate").path("spec").path("template").path("spec")).put("restartPolicy", "Always");
        List<String> errs = create(strategy, c);
        assertEquals(4, errs.size(), errs::toString);
        assertEquals("spec.concurrencyPolicy: Unsupported value: \"Sometimes\": supported values: \"Allow\", \"Forbid\", "
                + "\"Replace\"", errs.get(0));
        assertEquals("spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: \"OnFailure\", "
                + "\"Never\"", errs.get(1));
        assertTrue(errs.get(2).startsWith("spec.jobTemplate.spec.selector: Invalid value: ")
                && errs.get(2).endsWith("`selector` will be auto-generated"), errs::toString);
        assertEquals("metadata.name: Invalid value: \"a-cronjob-name-that-is-far-too-long-for-the-jobs-it-makes\": must be "
                + "no more than 52 characters", errs.get(3));
    }

    @Test
    void updatesKeepTheStatusAndRevalidate() {
        ObjectNode old = cronJob("hello", "@hourly");
        create(strategy, old);
        old.set("status", json("{'lastScheduleTime':'2024-01-01T00:00:00Z'}"));
        ObjectNode put = old.deepCopy();
        ((ObjectNode) put.path("spec")).put("schedule", "1 2 3");
        put.remove("status");
        assertEquals(List.of("spec.schedule: Invalid value: \"1 2 3\": expected exactly 5 fields, found 3: [1 2 3]"),
                update(strategy, put, old));
        assertEquals(old.path("status"), put.path("status"));

        ObjectNode status = old.deepCopy();
        status.set("status", json("{'active':[{'name':'hello-1'}]}"));
        ((ObjectNode) status.path("spec")).put("suspend", true);
        assertEquals(List.of(), update(BatchStatusStrategy.cronJob(), status, old));
        assertEquals(false, status.path("spec").path("suspend").asBoolean());
    }
}
