package io.kubelix.resource.batch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.kubelix.resource.batch.Fixtures.CTX;
import static io.kubelix.resource.batch.Fixtures.UID;
import static io.kubelix.resource.batch.Fixtures.create;
import static io.kubelix.resource.batch.Fixtures.job;
import static io.kubelix.resource.batch.Fixtures.json;
import static io.kubelix.resource.batch.Fixtures.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JobStrategyTest {
    private final JobStrategy strategy = new JobStrategy();

    @Test
    void aNewJobGetsKubesDefaults() {
        ObjectNode j = job("pi");
        assertEquals(List.of(), create(strategy, j));

        JsonNode spec = j.path("spec");
        assertEquals(1, spec.path("completions").asInt());
        assertEquals(1, spec.path("parallelism").asInt());
        assertEquals(6, spec.path("backoffLimit").asInt());
        assertEquals("NonIndexed", spec.path("completionMode").asText());
        assertEquals(false, spec.path("suspend").asBoolean(true));
        assertEquals(false, spec.path("manualSelector").asBoolean(true));
        assertEquals("TerminatingOrFailed", spec.path("podReplacementPolicy").asText());
        JsonNode pod = spec.path("template").path("spec");
        assertEquals("ClusterFirst", pod.path("dnsPolicy").asText());
        assertEquals(30, pod.path("terminationGracePeriodSeconds").asInt());
        assertEquals("Always", pod.path("containers").get(0).path("imagePullPolicy").asText());
        assertEquals(json("{}"), j.path("status"));
    }

    @Test
    void parallelismAloneLeavesCompletionsUnset() {
        ObjectNode j = job("queue");
        ((ObjectNode) j.path("spec")).put("parallelism", 3);
        create(strategy, j);
        assertTrue(j.path("spec").path("completions").isMissingNode(), j::toString);
        assertEquals(3, j.path("spec").path("parallelism").asInt());
        assertEquals("0/1 of 3", BatchPrinters.completions(j));
    }

    @Test
    void theSelectorAndLabelsAreGeneratedFromTheUid() {
        ObjectNode j = job("pi");
        create(strategy, j);

        assertEquals(json("{'matchLabels':{'batch.kubernetes.io/controller-uid':'" + UID + "'}}"), j.path("spec").path("selector"));
        JsonNode expected = json("{'batch.kubernetes.io/controller-uid':'" + UID + "','batch.kubernetes.io/job-name':'pi',"
                + "'controller-uid':'" + UID + "','job-name':'pi'}");
        assertEquals(expected, j.path("spec").path("template").path("metadata").path("labels"));
        assertEquals(expected, j.path("metadata").path("labels"), "a job without labels takes its template's");
    }

    @Test
    void aManualSelectorMustMatchTheTemplate() {
        ObjectNode j = job("manual");
        ObjectNode spec = (ObjectNode) j.path("spec");
        spec.put("manualSelector", true);
        assertEquals(List.of("spec.selector: Required value"), create(strategy, j));

        ObjectNode k = job("manual");
        ((ObjectNode) k.path("spec")).put("manualSelector", true).set("selector", json("{'matchLabels':{'app':'a'}}"));
        ((ObjectNode) k.path("spec").path("template").path("metadata")).set("labels", json("{'app':'b'}"));
        assertEquals(List.of("spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"b\"}: "
                + "`selector` does not match template `labels`"), create(strategy, k));
    }

    @Test
    void aSelectorNotGeneratedIsRefused() {
        ObjectNode j = job("pi");
        ((ObjectNode) j.path("spec")).set("selector", json("{'matchLabels':{'app':'x'}}"));
        List<String> errs = create(strategy, j);
        assertEquals(2, errs.size(), errs::toString);
        assertTrue(errs.get(0).startsWith("spec.selector: Invalid value: ") && errs.get(0).endsWith("`selector` not auto-generated"),
                errs::toString);
        assertTrue(errs.get(1).startsWith("spec.template.metadata.labels: Invalid value: ")
                && errs.get(1).endsWith("`selector` does not match template `labels`"), errs::toString);
    }

    @Test
    void restartPolicyMustBeOnFailureOrNever() {
        ObjectNode j = job("pi");
        ((ObjectNode) j.path("spec").path("template").path("spec")).remove("restartPolicy");
        assertEquals(List.of("spec.template.spec.restartPolicy: Required value: valid values: \"OnFailure\", \"Never\""),
                create(strategy, j));

        ObjectNode k = job("pi");
        ((ObjectNode) k.path("spec").path("template").path("spec")).put("restartPolicy", "Sometimes");
        assertTrue(create(strategy, k).contains("spec.template.spec.restartPolicy: Unsupported value: \"Sometimes\": "
                + "supported values: \"OnFailure\", \"Never\""));
    }

    @Test
    void negativeCountsAndIndexedWithoutCompletionsAreInvalid() {
        ObjectNode j = job("pi");
        ((ObjectNode) j.path("spec")).put("backoffLimit", -1).put("parallelism", -2).put("completions", 2)
                .put("completionMode", "Indexed");
        assertEquals(List.of("spec.parallelism: Invalid value: -2: must be greater than or equal to 0",
                "spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0"), create(strategy, j));

        ObjectNode k = job("pi");
        ((ObjectNode) k.path("spec")).put("completionMode", "Indexed").put("parallelism", 2);
        assertEquals(List.of("spec.completions: Required value: when completion mode is Indexed"), create(strategy, k));
    }

    @Test
    void templateSelectorAndCompletionsAreImmutable() {
        ObjectNode old = job("pi");
        create(strategy, old);

        ObjectNode image = old.deepCopy();
        ((ObjectNode) image.path("spec").path("template").path("spec").path("containers").get(0)).put("image", "nginx");
        assertEquals(List.of("spec.template: Invalid value: core.PodTemplateSpec{...}: field is immutable"),
                update(strategy, image, old));

        ObjectNode completions = old.deepCopy();
        ((ObjectNode) completions.path("spec")).put("completions", 3);
        assertEquals(List.of("spec.completions: Invalid value: 3: field is immutable"), update(strategy, completions, old));

        ObjectNode selector = old.deepCopy();
        ((ObjectNode) selector.path("spec").path("selector").path("matchLabels")).put("extra", "x");
        assertTrue(update(strategy, selector, old).stream().anyMatch(m -> m.startsWith("spec.selector: Invalid value: ")
                && m.endsWith(": field is immutable")));

        ObjectNode parallelism = old.deepCopy();
        ((ObjectNode) parallelism.path("spec")).put("parallelism", 4).put("activeDeadlineSeconds", 60);
        assertEquals(List.of(), update(strategy, parallelism, old), "parallelism and deadlines may change");
    }

    @Test
    void aSuspendedJobMayChangeItsSchedulingDirectives() {
        ObjectNode old = job("pi");
        ((ObjectNode) old.path("spec")).put("suspend", true);
        create(strategy, old);
        ObjectNode moved = old.deepCopy();
        ((ObjectNode) moved.path("spec").path("template").path("spec")).set("nodeSelector", json("{'disk':'ssd'}"));
        assertEquals(List.of(), update(strategy, moved, old));
    }

    @Test
    void theMainResourceKeepsTheStatusAndTheStatusStrategyOnlyTheStatus() {
        ObjectNode old = job("pi");
        create(strategy, old);
        old.set("status", json("{'active':1}"));

        ObjectNode put = old.deepCopy();
        put.set("status", json("{'succeeded':1}"));
        update(strategy, put, old);
        assertEquals(json("{'active':1}"), put.path("status"));

        ObjectNode status = old.deepCopy();
        status.set("status", json("{'succeeded':-1}"));
        ((ObjectNode) status.path("spec")).put("parallelism", 9);
        assertEquals(List.of("status.succeeded: Invalid value: -1: must be greater than or equal to 0"),
                update(BatchStatusStrategy.job(), status, old));
        assertEquals(1, status.path("spec").path("parallelism").asInt());
    }
}
