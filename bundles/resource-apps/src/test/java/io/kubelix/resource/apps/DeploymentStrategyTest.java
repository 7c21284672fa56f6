package io.kubelix.resource.apps;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.kubelix.resource.apps.Fixtures.CTX;
import static io.kubelix.resource.apps.Fixtures.create;
import static io.kubelix.resource.apps.Fixtures.json;
import static io.kubelix.resource.apps.Fixtures.workload;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DeploymentStrategyTest {
    private final WorkloadStrategy strategy = WorkloadStrategy.deployment();

    @Test
    void kubectlCreateDeploymentGetsKubesDefaults() {
        ObjectNode d = workload("Deployment", "web");
        ((ObjectNode) d.path("spec")).remove("replicas");

        assertEquals(List.of(), create(strategy, d));

        JsonNode spec = d.path("spec");
        assertEquals(1, spec.path("replicas").asInt());
        assertEquals("{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxUnavailable\":\"25%\",\"maxSurge\":\"25%\"}}",
                spec.path("strategy").toString());
        assertEquals(10, spec.path("revisionHistoryLimit").asInt());
        assertEquals(600, spec.path("progressDeadlineSeconds").asInt());
        JsonNode pod = spec.path("template").path("spec");
        assertEquals("Always", pod.path("restartPolicy").asText());
        assertEquals("ClusterFirst", pod.path("dnsPolicy").asText());
        assertEquals(30, pod.path("terminationGracePeriodSeconds").asInt());
        assertEquals("default-scheduler", pod.path("schedulerName").asText());
        assertEquals("Always", pod.path("containers").get(0).path("imagePullPolicy").asText());
        assertEquals("{}", d.path("status").toString(), "a new deployment's status is empty");
    }

    @Test
    void recreateGetsNoRollingUpdate() {
        ObjectNode d = workload("Deployment", "web");
        ((ObjectNode) d.path("spec")).set("strategy", json("{'type':'Recreate'}"));

        assertEquals(List.of(), create(strategy, d));
        assertEquals("{\"type\":\"Recreate\"}", d.path("spec").path("strategy").toString());
    }

    @Test
    void aSelectorThatDoesNotMatchTheTemplateIsInvalid() {
        ObjectNode d = workload("Deployment", "web");
        ((ObjectNode) d.path("spec").path("selector").path("matchLabels")).put("app", "other");

        assertEquals(List.of("spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"web\"}: "
                + "`selector` does not match template `labels`"), create(strategy, d));
    }

    @Test
    void aMissingSelectorAndEmptyContainersAreReportedAtKubesPaths() {
        ObjectNode d = json("{'metadata':{'name':'web'},'spec':{'template':{'metadata':{'labels':{'app':'web'}},"
                + "'spec':{'containers':[]}}}}");

        List<String> errs = create(strategy, d);

        assertEquals(List.of("spec.selector: Required value",
                "spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"web\"}: `selector` does not "
                        + "match template `labels`",
                "spec.template.spec.containers: Required value"), errs);
    }

    @Test
    void replicasStrategyAndTemplateRules() {
        ObjectNode d = workload("Deployment", "web");
        ObjectNode spec = (ObjectNode) d.path("spec");
        spec.put("replicas", -1);
        spec.set("strategy", json("{'type':'RollingUpdate','rollingUpdate':{'maxUnavailable':0,'maxSurge':'0%'}}"));
        ((ObjectNode) spec.path("template").path("spec")).put("restartPolicy", "OnFailure");
        ((ObjectNode) spec.path("template").path("spec").path("containers").get(0)).remove("image");

        assertEquals(List.of("spec.replicas: Invalid value: -1: must be greater than or equal to 0",
                "spec.template.spec.containers[0].image: Required value",
                "spec.template.spec.restartPolicy: Unsupported value: \"OnFailure\": supported values: \"Always\"",
                "spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:0, "
                        + "StrVal:\"\"}: may not be 0 when `maxSurge` is 0"), create(strategy, d));
    }

    @Test
    void anUnknownStrategyTypeIsNotSupported() {
        ObjectNode d = workload("Deployment", "web");
        ((ObjectNode) d.path("spec")).set("strategy", json("{'type':'BlueGreen'}"));

        List<String> errs = create(strategy, d);

        assertEquals(1, errs.size(), errs::toString);
        assertTrue(errs.get(0).startsWith("spec.strategy: Unsupported value: apps.DeploymentStrategy{Type:\"BlueGreen\""),
                errs::toString);
        assertTrue(errs.get(0).endsWith("supported values: \"Recreate\", \"RollingUpdate\""), errs::toString);
    }

    @Test
    void theSelectorIsImmutable() {
        ObjectNode old = workload("Deployment", "web");
        create(strategy, old);
        ObjectNode updated = old.deepCopy();
        ((ObjectNode) updated.path("spec").path("selector").path("matchLabels")).put("tier", "fe");
        ((ObjectNode) updated.path("spec").path("template").path("metadata").path("labels")).put("tier", "fe");

        strategy.prepareForUpdate(CTX, updated, old);
        List<FieldError> errs = strategy.validateUpdate(CTX, updated, old);

        assertEquals(List.of("spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{\"app\":\"web\", "
                + "\"tier\":\"fe\"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable"),
                errs.stream().map(FieldError::message).toList());
    }

    @Test
    void anUpdateKeepsTheStatusAndIsDefaultedAgain() {
        ObjectNode old = workload("Deployment", "web");
        create(strategy, old);
        old.set("status", json("{'replicas':2,'readyReplicas':2}"));
        ObjectNode put = workload("Deployment", "web");
        put.set("status", json("{'replicas':9}"));

        strategy.prepareForUpdate(CTX, put, old);

        assertEquals(old.path("status"), put.path("status"));
        assertEquals(old.path("spec"), put.path("spec"), "the same spec defaulted again: no generation bump");
    }

    @Test
    void anAnnotationChangeIsANewGenerationOfADeploymentOnly() {
        ObjectNode old = workload("Deployment", "web");
        create(strategy, old);
        ((ObjectNode) old.path("metadata")).put("generation", 4);
        ObjectNode annotated = old.deepCopy();
        ((ObjectNode) annotated.path("metadata")).putObject("annotations").put("team", "a");

        strategy.prepareForUpdate(CTX, annotated, old);
        assertEquals(5, annotated.path("metadata").path("generation").asInt());

        ObjectNode labelled = old.deepCopy();
        ((ObjectNode) labelled.path("metadata").path("labels")).put("team", "a");
        strategy.prepareForUpdate(CTX, labelled, old);
        assertEquals(4, labelled.path("metadata").path("generation").asInt());

        ObjectNode rs = workload("ReplicaSet", "web");
        WorkloadStrategy.replicaSet().prepareForCreate(CTX, rs);
        ((ObjectNode) rs.path("metadata")).put("generation", 4);
        ObjectNode rsAnnotated = rs.deepCopy();
        ((ObjectNode) rsAnnotated.path("metadata")).putObject("annotations").put("team", "a");
        WorkloadStrategy.replicaSet().prepareForUpdate(CTX, rsAnnotated, rs);
        assertEquals(4, rsAnnotated.path("metadata").path("generation").asInt());
    }

    @Test
    void statusUpdatesAreValidated() {
        WorkloadStatusStrategy status = new WorkloadStatusStrategy(StatusValidation::deployment, true);
        ObjectNode old = workload("Deployment", "web");
        create(strategy, old);
        ObjectNode update = old.deepCopy();
        update.set("status", json("{'replicas':1,'readyReplicas':2,'availableReplicas':-1}"));
        ((ObjectNode) update.path("spec")).put("replicas", 7);

        status.prepareForUpdate(CTX, update, old);

        assertEquals(2, update.path("spec").path("replicas").asInt(), "the status subresource keeps the spec");
        assertEquals(List.of("status.availableReplicas: Invalid value: -1: must be greater than or equal to 0",
                "status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas"),
                status.validateUpdate(CTX, update, old).stream().map(FieldError::message).toList());
    }
}
