package io.kubelix.itest.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.itest.e2e.Kubectl.Result;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The batch/v1 plugin (resource-batch) in the built distribution, driven by the real kubectl:
 * {@code create job}, {@code create cronjob} and {@code create job --from=cronjob/...}, {@code get}
 * with kube's columns ({@code -o wide} too), kube's defaults and the generated selector,
 * {@code explain}, {@code apply} twice, {@code get all}, 422s with kube's messages for a bad
 * schedule, a restart policy and a changed template, the status subresource, delete, and
 * {@code api-resources --api-group=batch}. The methods run in order on one server.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KubectlBatchIT extends KubectlSuite {
    KubectlBatchIT() {
        super("batch", "jobs,cronjobs");
    }

    @Test
    @Order(1)
    void createJobGetsKubesDefaultsAndGeneratedSelector() throws Exception {
        assertEquals("job.batch/pi created", kubectl.ok("create", "job", "pi", "--image=busybox").stdout().trim());

        List<String> lines = kubectl.ok("get", "jobs").stdout().lines().toList();
        assertTrue(lines.get(0).matches("NAME\\s+STATUS\\s+COMPLETIONS\\s+DURATION\\s+AGE"), lines::toString);
        assertTrue(lines.get(1).matches("pi\\s+Running\\s+0/1\\s+\\d+s"), lines::toString);

        JsonNode job = JSON.readTree(kubectl.ok("get", "job", "pi", "-o", "json").stdout());
        String uid = job.path("metadata").path("uid").asText();
        JsonNode spec = job.path("spec");
        assertEquals(1, spec.path("completions").asInt(), job::toString);
        assertEquals(1, spec.path("parallelism").asInt(), job::toString);
        assertEquals(6, spec.path("backoffLimit").asInt(), job::toString);
        assertEquals("NonIndexed", spec.path("completionMode").asText(), job::toString);
        assertEquals("TerminatingOrFailed", spec.path("podReplacementPolicy").asText(), job::toString);
        assertTrue(spec.path("suspend").isBoolean() && !spec.path("suspend").asBoolean(), job::toString);
        assertEquals(uid, spec.path("selector").path("matchLabels").path("batch.kubernetes.io/controller-uid").asText(),
                job::toString);
        JsonNode labels = spec.path("template").path("metadata").path("labels");
        assertEquals("pi", labels.path("batch.kubernetes.io/job-name").asText(), job::toString);
        assertEquals(uid, labels.path("controller-uid").asText(), job::toString);
        assertEquals(labels, job.path("metadata").path("labels"), job::toString);
        assertEquals("Never", spec.path("template").path("spec").path("restartPolicy").asText(), job::toString);

        List<String> wide = kubectl.ok("get", "job", "pi", "-o", "wide").stdout().lines().toList();
        assertTrue(wide.get(0).matches("NAME\\s+STATUS\\s+COMPLETIONS\\s+DURATION\\s+AGE\\s+CONTAINERS\\s+IMAGES\\s+SELECTOR"),
                wide::toString);
        assertTrue(wide.get(1).matches("pi\\s+Running\\s+0/1\\s+\\d+s\\s+pi\\s+busybox\\s+batch.kubernetes.io/controller-uid="
                + uid), wide::toString);
    }

    @Test
    @Order(2)
    void createCronJobAndAJobFromIt() throws Exception {
        assertEquals("cronjob.batch/hello created", kubectl.ok("create", "cronjob", "hello", "--image=busybox",
                "--schedule=*/5 * * * *", "--", "echo", "hello").stdout().trim());

        List<String> lines = kubectl.ok("get", "cj").stdout().lines().toList();
        assertTrue(lines.get(0).matches("NAME\\s+SCHEDULE\\s+TIMEZONE\\s+SUSPEND\\s+ACTIVE\\s+LAST SCHEDULE\\s+AGE"),
                lines::toString);
        assertTrue(lines.get(1).matches("hello\\s+\\*/5 \\* \\* \\* \\*\\s+<none>\\s+False\\s+0\\s+<none>\\s+\\d+s"),
                lines::toString);

        JsonNode cj = JSON.readTree(kubectl.ok("get", "cronjob", "hello", "-o", "json").stdout());
        assertEquals("Allow", cj.path("spec").path("concurrencyPolicy").asText(), cj::toString);
        assertEquals(3, cj.path("spec").path("successfulJobsHistoryLimit").asInt(), cj::toString);
        assertEquals(1, cj.path("spec").path("failedJobsHistoryLimit").asInt(), cj::toString);

        assertEquals("job.batch/hello-manual created",
                kubectl.ok("create", "job", "hello-manual", "--from=cronjob/hello").stdout().trim());
        JsonNode job = JSON.readTree(kubectl.ok("get", "job", "hello-manual", "-o", "json").stdout());
        assertEquals("manual", job.path("metadata").path("annotations").path("cronjob.kubernetes.io/instantiate").asText(),
                job::toString);
        assertEquals("CronJob", job.path("metadata").path("ownerReferences").path(0).path("kind").asText(), job::toString);
        assertEquals("OnFailure", job.path("spec").path("template").path("spec").path("restartPolicy").asText(), job::toString);

        String all = kubectl.ok("get", "all").stdout();
        for (String name : List.of("job.batch/pi", "job.batch/hello-manual", "cronjob.batch/hello")) {
            assertTrue(all.lines().anyMatch(l -> l.startsWith(name + " ")), name + " in\n" + all);
        }
    }

    @Test
    @Order(3)
    void explainShowsTheGeneratedSchema() throws Exception {
        String explain = kubectl.ok("explain", "cronjob.spec.schedule").stdout();
        assertTrue(explain.contains("KIND:       CronJob") && explain.contains("GROUP:      batch"), explain);
        assertTrue(explain.contains("schedule <string>"), explain);
        String jobs = kubectl.ok("explain", "job.spec").stdout();
        assertTrue(jobs.contains("backoffLimit\t<integer>") && jobs.contains("template\t<PodTemplateSpec> -required-"), jobs);
    }

    @Test
    @Order(4)
    void applyTwiceCreatesThenConfigures() throws Exception {
        Path file = work.resolve("cronjob.yaml");
        String manifest = "apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: report\nspec:\n  schedule: \"SCHEDULE\"\n"
                + "  timeZone: Europe/Berlin\n  jobTemplate:\n    spec:\n      template:\n        spec:\n"
                + "          restartPolicy: Never\n          containers:\n          - name: report\n            image: busybox\n";
        Files.writeString(file, manifest.replace("SCHEDULE", "@daily"), StandardCharsets.UTF_8);
        assertEquals("cronjob.batch/report created", kubectl.ok("apply", "-f", file.toString()).stdout().trim());
        assertEquals("cronjob.batch/report unchanged", kubectl.ok("apply", "-f", file.toString()).stdout().trim());
        Files.writeString(file, manifest.replace("SCHEDULE", "30 6 * * MON-FRI"), StandardCharsets.UTF_8);
        assertEquals("cronjob.batch/report configured", kubectl.ok("apply", "-f", file.toString()).stdout().trim());

        assertTrue(kubectl.ok("get", "cronjobs.batch", "report").stdout().lines()
                .anyMatch(l -> l.matches("report\\s+30 6 \\* \\* MON-FRI\\s+Europe/Berlin\\s+False\\s+0\\s+<none>\\s+\\d+s")));
        JsonNode cj = JSON.readTree(kubectl.ok("get", "cj", "report", "-o", "json").stdout());
        assertEquals(2, cj.path("metadata").path("generation").asInt(), cj::toString);
    }

    @Test
    @Order(5)
    void invalidJobsAndCronJobsAre422WithKubesMessages() throws Exception {
        Result schedule = kubectl.run("create", "cronjob", "bad", "--image=busybox", "--schedule=every day");
        assertNotEquals(0, schedule.exitCode(), schedule::toString);
        assertTrue(schedule.stderr().contains("CronJob.batch \"bad\" is invalid: spec.schedule: Invalid value: \"every day\": "
                + "expected exactly 5 fields, found 2: [every day]"), schedule::toString);

        Path file = work.resolve("job.yaml");
        Files.writeString(file, "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: always\nspec:\n  template:\n    spec:\n"
                + "      containers:\n      - name: c\n        image: busybox\n", StandardCharsets.UTF_8);
        Result restart = kubectl.run("create", "-f", file.toString());
        assertNotEquals(0, restart.exitCode(), restart::toString);
        assertTrue(restart.stderr().contains("The Job \"always\" is invalid: spec.template.spec.restartPolicy: Required value: "
                + "valid values: \"OnFailure\", \"Never\""), restart::toString);

        Result image = kubectl.run("set", "image", "job/pi", "pi=busybox:1.36");
        assertNotEquals(0, image.exitCode(), image::toString);
        assertTrue(image.stderr().contains("spec.template: Invalid value: ") && image.stderr().contains("field is immutable"),
                image::toString);
    }

    @Test
    @Order(6)
    void statusIsWrittenThroughItsSubresource() throws Exception {
        String status = "{\"status\":{\"startTime\":\"2024-01-01T00:00:00Z\",\"completionTime\":\"2024-01-01T00:01:05Z\","
                + "\"succeeded\":1,\"conditions\":[{\"type\":\"Complete\",\"status\":\"True\"}]}}";
        kubectl.ok("patch", "job", "pi", "--subresource=status", "--type=merge", "-p", status);
        assertTrue(kubectl.ok("get", "job", "pi").stdout().lines().anyMatch(l -> l.matches("pi\\s+Complete\\s+1/1\\s+65s\\s+\\d+s")));
        assertEquals("job.batch/pi", kubectl.ok("get", "jobs", "--field-selector", "status.successful=1", "-o", "name")
                .stdout().trim());

        kubectl.ok("patch", "job", "pi", "--type=merge", "-p", "{\"status\":{\"succeeded\":7}}");
        JsonNode job = JSON.readTree(kubectl.ok("get", "job", "pi", "-o", "json").stdout());
        assertEquals(1, job.path("status").path("succeeded").asInt(), "the main resource keeps the status: " + job);
    }

    @Test
    @Order(7)
    void deleteAndApiResources() throws Exception {
        assertEquals("job.batch \"pi\" deleted", kubectl.ok("delete", "job", "pi").stdout().trim());
        Result gone = kubectl.run("get", "job", "pi");
        assertTrue(gone.stderr().contains("Error from server (NotFound): jobs.batch \"pi\" not found"), gone::toString);

        Result resources = kubectl.ok("api-resources", "--api-group=batch");
        assertTrue(resources.stdout().lines().anyMatch(l -> l.matches("cronjobs\\s+cj\\s+batch/v1\\s+true\\s+CronJob")),
                resources::toString);
        assertTrue(resources.stdout().lines().anyMatch(l -> l.matches("jobs\\s+batch/v1\\s+true\\s+Job")), resources::toString);
    }
}
