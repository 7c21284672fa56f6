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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The autoscaling, scheduling.k8s.io, storage.k8s.io and events.k8s.io plugins in the built
 * distribution, driven by the real kubectl: {@code kubectl autoscale} (autoscaling/v1) and the same
 * autoscaler read as autoscaling/v2 with kube's defaults and columns; the system priority classes
 * created at start, {@code kubectl create priorityclass}, the single global default and the immutable
 * value; storage classes with the {@code (default)} marker and immutable provisioner, CSI drivers and a
 * volume attachment's status; events written through either events API and read through the other,
 * with events.k8s.io's field selectors and strict validation; {@code explain}, {@code apply} twice
 * and {@code api-resources} for each group. The methods run in order on one server.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KubectlAutoscalingSchedulingStorageEventsIT extends KubectlSuite {
    KubectlAutoscalingSchedulingStorageEventsIT() {
        super("groups", "hpa,pc,sc,events.events.k8s.io,deploy");
    }

    @Test
    @Order(1)
    void apiResourcesListEachGroupAsKubeDoes() throws Exception {
        assertResource("autoscaling", "horizontalpodautoscalers\\s+hpa\\s+autoscaling/v2\\s+true\\s+HorizontalPodAutoscaler");
        assertResource("scheduling.k8s.io", "priorityclasses\\s+pc\\s+scheduling.k8s.io/v1\\s+false\\s+PriorityClass");
        assertResource("storage.k8s.io", "storageclasses\\s+sc\\s+storage.k8s.io/v1\\s+false\\s+StorageClass");
        assertResource("storage.k8s.io", "csidrivers\\s+storage.k8s.io/v1\\s+false\\s+CSIDriver");
        assertResource("storage.k8s.io", "csinodes\\s+storage.k8s.io/v1\\s+false\\s+CSINode");
        assertResource("storage.k8s.io", "volumeattachments\\s+storage.k8s.io/v1\\s+false\\s+VolumeAttachment");
        assertResource("events.k8s.io", "events\\s+ev\\s+events.k8s.io/v1\\s+true\\s+Event");
        assertEquals(List.of("autoscaling/v1", "autoscaling/v2"), kubectl.ok("api-versions").stdout().lines()
                .filter(l -> l.startsWith("autoscaling/")).sorted().toList());
    }

    @Test
    @Order(2)
    void kubectlAutoscaleIsServedAndReadAsV2WithKubesDefaults() throws Exception {
        kubectl.ok("create", "deployment", "web", "--image=nginx");
        assertEquals("horizontalpodautoscaler.autoscaling/web autoscaled",
                kubectl.ok("autoscale", "deployment", "web", "--max=5").stdout().trim());

        List<String> lines = kubectl.ok("get", "hpa").stdout().lines().toList();
        assertTrue(lines.get(0).matches("NAME\\s+REFERENCE\\s+TARGETS\\s+MINPODS\\s+MAXPODS\\s+REPLICAS\\s+AGE"), lines::toString);
        assertTrue(lines.get(1).matches("web\\s+Deployment/web\\s+cpu: <unknown>/80%\\s+1\\s+5\\s+0\\s+\\d+s"), lines::toString);

        JsonNode v2 = JSON.readTree(kubectl.ok("get", "hpa", "web", "-o", "json").stdout());
        assertEquals("autoscaling/v2", v2.path("apiVersion").asText(), v2::toString);
        assertEquals(1, v2.path("spec").path("minReplicas").asInt(), v2::toString);
        assertEquals(80, v2.path("spec").path("metrics").path(0).path("resource").path("target")
                .path("averageUtilization").asInt(), v2::toString);

        JsonNode v1 = JSON.readTree(kubectl.ok("get", "--raw",
                "/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers/web").stdout());
        assertEquals(80, v1.path("spec").path("targetCPUUtilizationPercentage").asInt(), v1::toString);
        assertEquals(v2.path("metadata").path("uid"), v1.path("metadata").path("uid"), "one object in both versions");

        // no controller: the status is what its subresource is given, and both versions show it
        kubectl.ok("patch", "hpa", "web", "--subresource=status", "--type=merge", "-p", "{\"status\":{\"currentReplicas\":3,"
                + "\"desiredReplicas\":3,\"currentMetrics\":[{\"type\":\"Resource\",\"resource\":{\"name\":\"cpu\","
                + "\"current\":{\"averageUtilization\":42}}}]}}");
        assertTrue(kubectl.ok("get", "hpa", "web").stdout().lines().anyMatch(l ->
                l.matches("web\\s+Deployment/web\\s+cpu: 42%/80%\\s+1\\s+5\\s+3\\s+\\d+s")));
        JsonNode v1Status = JSON.readTree(kubectl.ok("get", "--raw",
                "/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers/web").stdout()).path("status");
        assertEquals(42, v1Status.path("currentCPUUtilizationPercentage").asInt(), v1Status::toString);
        assertEquals(3, v1Status.path("currentReplicas").asInt(), v1Status::toString);

        assertTrue(kubectl.ok("explain", "hpa.spec.metrics").stdout().contains("MetricSpec"));
        assertTrue(kubectl.ok("get", "all").stdout().contains("horizontalpodautoscaler.autoscaling/web"));
    }

    @Test
    @Order(3)
    void hpaApplyTwiceA422ForReplicaBoundsAndA400ForATargetThatIsNoQuantity() throws Exception {
        Path file = work.resolve("hpa.yaml");
        String hpa = "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: api\nspec:\n"
                + "  scaleTargetRef:\n    apiVersion: apps/v1\n    kind: Deployment\n    name: api\n  minReplicas: MIN\n"
                + "  maxReplicas: 5\n  metrics:\n  - type: Resource\n    resource:\n      name: memory\n      target:\n"
                + "        type: AverageValue\n        averageValue: 500Mi\n";
        Files.writeString(file, hpa.replace("MIN", "2"), StandardCharsets.UTF_8);
        assertEquals("horizontalpodautoscaler.autoscaling/api created", kubectl.ok("apply", "-f", file.toString()).stdout().trim());
        assertEquals("horizontalpodautoscaler.autoscaling/api unchanged", kubectl.ok("apply", "-f", file.toString()).stdout().trim());
        assertTrue(kubectl.ok("get", "hpa", "api").stdout().lines().anyMatch(l ->
                l.matches("api\\s+Deployment/api\\s+memory: <unknown>/500Mi\\s+2\\s+5\\s+0\\s+\\d+s")));

        Files.writeString(file, hpa.replace("MIN", "6"), StandardCharsets.UTF_8);
        Result r = kubectl.run("apply", "-f", file.toString());
        assertNotEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stderr().contains("The HorizontalPodAutoscaler \"api\" is invalid: spec.maxReplicas: Invalid "
                + "value: 5: must be greater than or equal to `minReplicas`"), r::toString);

        // A target that is no resource.Quantity is kube's decoding 400, not stored.
        Files.writeString(file, hpa.replace("MIN", "2").replace("500Mi", "5foo"), StandardCharsets.UTF_8);
        Result notAQuantity = kubectl.run("apply", "-f", file.toString());
        assertNotEquals(0, notAQuantity.exitCode(), notAQuantity::toString);
        assertTrue(notAQuantity.stderr().contains("(BadRequest)") && notAQuantity.stderr().contains(
                "HorizontalPodAutoscaler in version \"v2\" cannot be handled as a HorizontalPodAutoscaler: quantities "
                        + "must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"),
                notAQuantity::toString);
        assertEquals("horizontalpodautoscaler.autoscaling \"api\" deleted", kubectl.ok("delete", "hpa", "api").stdout().trim());
    }

    @Test
    @Order(4)
    void priorityClassesAsKubeHasThem() throws Exception {
        List<String> system = await("the system priority classes", () -> kubectl.run("get", "pc"),
                r -> r.exitCode() == 0 && r.stdout().contains("system-cluster-critical")).stdout().lines().toList();
        assertTrue(system.get(0).matches("NAME\\s+VALUE\\s+GLOBAL-DEFAULT\\s+AGE\\s+PREEMPTIONPOLICY"), system::toString);
        assertTrue(system.stream().anyMatch(l -> l.matches("system-node-critical\\s+2000001000\\s+false\\s+\\S+\\s+"
                + "PreemptLowerPriority")), system::toString);
        assertTrue(system.stream().anyMatch(l -> l.matches("system-cluster-critical\\s+2000000000\\s+false\\s+\\S+\\s+"
                + "PreemptLowerPriority")), system::toString);

        assertEquals("priorityclass.scheduling.k8s.io/high created", kubectl.ok("create", "priorityclass", "high",
                "--value=1000", "--global-default=true", "--description=important").stdout().trim());
        assertTrue(kubectl.ok("get", "pc", "high").stdout().lines().anyMatch(l ->
                l.matches("high\\s+1000\\s+true\\s+\\d+s\\s+PreemptLowerPriority")));

        Result second = kubectl.run("create", "priorityclass", "higher", "--value=2000", "--global-default=true");
        assertNotEquals(0, second.exitCode(), second::toString);
        assertTrue(second.stderr().contains("priorityclasses.scheduling.k8s.io \"higher\" is forbidden: PriorityClass high "
                + "is already marked as default. Only one default can exist"), second::toString);

        Result reserved = kubectl.run("create", "priorityclass", "system-mine", "--value=10");
        assertTrue(reserved.stderr().contains("PriorityClass.scheduling.k8s.io \"system-mine\" is invalid: metadata.name: Forbidden: "
                + "priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not "
                + "a known system priority class"), reserved::toString);

        Result changed = kubectl.run("patch", "pc", "high", "--type=merge", "-p", "{\"value\":5}");
        assertTrue(changed.stderr().contains("value: Forbidden: may not be changed in an update."), changed::toString);

        assertTrue(kubectl.ok("explain", "pc.preemptionPolicy").stdout().contains("PreemptLowerPriority"));
        assertEquals("priorityclass.scheduling.k8s.io \"high\" deleted", kubectl.ok("delete", "pc", "high").stdout().trim());
    }

    @Test
    @Order(5)
    void storageClassesCsiDriversAndVolumeAttachments() throws Exception {
        Path file = work.resolve("storage.yaml");
        String sc = "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: fast\n  annotations:\n"
                + "    storageclass.kubernetes.io/is-default-class: \"true\"\nprovisioner: PROVISIONER\nparameters:\n"
                + "  type: ssd\n---\napiVersion: storage.k8s.io/v1\nkind: CSIDriver\nmetadata:\n  name: csi.example.com\n"
                + "spec:\n  podInfoOnMount: true\n---\napiVersion: storage.k8s.io/v1\nkind: VolumeAttachment\nmetadata:\n"
                + "  name: va-1\nspec:\n  attacher: csi.example.com\n  nodeName: node-1\n  source:\n"
                + "    persistentVolumeName: pv-1\n";
        Files.writeString(file, sc.replace("PROVISIONER", "example.com/ssd"), StandardCharsets.UTF_8);
        Result created = kubectl.ok("apply", "-f", file.toString());
        assertTrue(created.stdout().contains("storageclass.storage.k8s.io/fast created"), created::toString);
        assertTrue(created.stdout().contains("csidriver.storage.k8s.io/csi.example.com created"), created::toString);
        Result again = kubectl.ok("apply", "-f", file.toString());
        assertTrue(again.stdout().contains("storageclass.storage.k8s.io/fast unchanged"), again::toString);

        List<String> classes = kubectl.ok("get", "sc").stdout().lines().toList();
        assertTrue(classes.get(0).matches("NAME\\s+PROVISIONER\\s+RECLAIMPOLICY\\s+VOLUMEBINDINGMODE\\s+"
                + "ALLOWVOLUMEEXPANSION\\s+AGE"), classes::toString);
        assertTrue(classes.get(1).matches("fast \\(default\\)\\s+example.com/ssd\\s+Delete\\s+Immediate\\s+false\\s+\\d+s"),
                classes::toString);

        Files.writeString(file, sc.replace("PROVISIONER", "example.com/hdd"), StandardCharsets.UTF_8);
        Result immutable = kubectl.run("apply", "-f", file.toString());
        assertNotEquals(0, immutable.exitCode(), immutable::toString);
        assertTrue(immutable.stderr().contains("The StorageClass \"fast\" is invalid: provisioner: Forbidden: "
                + "updates to provisioner are forbidden."), immutable::toString);

        assertTrue(kubectl.ok("get", "csidriver").stdout().lines().anyMatch(l -> l.matches(
                "csi.example.com\\s+true\\s+true\\s+false\\s+<unset>\\s+false\\s+Persistent\\s+\\d+s")));
        assertTrue(kubectl.ok("get", "volumeattachment").stdout().lines().anyMatch(l -> l.matches(
                "va-1\\s+csi.example.com\\s+pv-1\\s+node-1\\s+false\\s+\\d+s")));
        kubectl.ok("patch", "volumeattachment", "va-1", "--subresource=status", "--type=merge", "-p",
                "{\"status\":{\"attached\":true}}");
        assertTrue(kubectl.ok("get", "volumeattachment", "va-1").stdout().lines().anyMatch(l -> l.matches(
                "va-1\\s+csi.example.com\\s+pv-1\\s+node-1\\s+true\\s+\\d+s")));

        assertTrue(kubectl.ok("explain", "sc.volumeBindingMode").stdout().contains("FIELD: volumeBindingMode <string>"));
        assertEquals("storageclass.storage.k8s.io \"fast\" deleted", kubectl.ok("delete", "sc", "fast").stdout().trim());
    }

    @Test
    @Order(6)
    void eachEventsApiSeesTheOthersEvents() throws Exception {
        Path legacy = work.resolve("core-event.yaml");
        Files.writeString(legacy, "apiVersion: v1\nkind: Event\nmetadata:\n  name: web.pulled\ninvolvedObject:\n  kind: Pod\n"
                + "  name: web-1\n  namespace: default\nreason: Pulled\nmessage: image pulled\ntype: Normal\nsource:\n"
                + "  component: kubelet\ncount: 2\nfirstTimestamp: \"2026-01-01T10:00:00Z\"\nlastTimestamp: "
                + "\"2026-01-01T10:05:00Z\"\n", StandardCharsets.UTF_8);
        kubectl.ok("create", "-f", legacy.toString());
        JsonNode seen = JSON.readTree(kubectl.ok("get", "events.v1.events.k8s.io", "web.pulled", "-o", "json").stdout());
        assertEquals("events.k8s.io/v1", seen.path("apiVersion").asText(), seen::toString);
        assertEquals("web-1", seen.path("regarding").path("name").asText(), seen::toString);
        assertEquals("image pulled", seen.path("note").asText(), seen::toString);
        assertEquals(2, seen.path("deprecatedCount").asInt(), seen::toString);

        Path file = work.resolve("event.yaml");
        String event = "apiVersion: events.k8s.io/v1\nkind: Event\nmetadata:\n  name: web.scaled\neventTime: "
                + "\"2026-01-01T10:00:00.000000Z\"\nreportingController: example.com/deployer\nreportingInstance: "
                + "deployer-1\naction: Scale\nreason: Scaled\nregarding:\n  kind: Deployment\n  name: web\n  namespace: "
                + "default\nnote: scaled up\ntype: Normal\n";
        Files.writeString(file, event, StandardCharsets.UTF_8);
        assertEquals("event.events.k8s.io/web.scaled created", kubectl.ok("apply", "-f", file.toString()).stdout().trim());
        assertEquals("event.events.k8s.io/web.scaled unchanged", kubectl.ok("apply", "-f", file.toString()).stdout().trim());
        JsonNode core = JSON.readTree(kubectl.ok("get", "--raw", "/api/v1/namespaces/default/events/web.scaled").stdout());
        assertEquals("scaled up", core.path("message").asText(), core::toString);
        assertEquals("Deployment", core.path("involvedObject").path("kind").asText(), core::toString);
        assertEquals("example.com/deployer", core.path("reportingComponent").asText(), core::toString);

        List<String> table = kubectl.ok("get", "events.events.k8s.io", "--field-selector", "regarding.name=web")
                .stdout().lines().toList();
        assertTrue(table.get(0).matches("LAST SEEN\\s+TYPE\\s+REASON\\s+OBJECT\\s+MESSAGE"), table::toString);
        assertEquals(2, table.size(), table::toString);
        assertTrue(table.get(1).matches("\\S+\\s+Normal\\s+Scaled\\s+deployment/web\\s+scaled up"), table::toString);
        assertTrue(kubectl.ok("get", "events.events.k8s.io", "--field-selector", "reportingController=example.com/deployer",
                "-o", "name").stdout().contains("web.scaled"));
        Result unsupported = kubectl.run("get", "events.events.k8s.io", "--field-selector", "involvedObject.name=web");
        assertTrue(unsupported.stderr().contains("field label not supported: involvedObject.name"), unsupported::toString);

        Files.writeString(file, event.replace("eventTime: \"2026-01-01T10:00:00.000000Z\"\n", "").replace("web.scaled",
                "web.bad"), StandardCharsets.UTF_8);
        Result invalid = kubectl.run("apply", "-f", file.toString());
        assertNotEquals(0, invalid.exitCode(), invalid::toString);
        assertTrue(invalid.stderr().contains("The Event \"web.bad\" is invalid: eventTime: Required value"),
                invalid::toString);

        String explained = kubectl.ok("explain", "events.note", "--api-version=events.k8s.io/v1").stdout();
        assertTrue(explained.contains("GROUP:      events.k8s.io") && explained.contains("FIELD: note <string>"), explained);
        assertEquals("event.events.k8s.io \"web.scaled\" deleted",
                kubectl.ok("delete", "events.events.k8s.io", "web.scaled").stdout().trim());
        Result gone = kubectl.run("get", "--raw", "/api/v1/namespaces/default/events/web.scaled");
        assertNotEquals(0, gone.exitCode(), gone::toString);
        assertFalse(kubectl.ok("get", "ev", "-o", "name").stdout().contains("web.scaled"));
    }

    @Test
    @Order(7)
    void resourceEventsIsHotSwappedWhileCoreEventsStay() throws Exception {
        Path aside = server.takePluginOut("resource-events", work.resolve("aside"));
        await("events.k8s.io gone from kubectl api-resources", () -> kubectl.run("api-resources", "--api-group=events.k8s.io"),
                r -> r.exitCode() == 0 && r.stdout().lines().noneMatch(l -> l.startsWith("events ")));
        assertEquals("event/web.pulled", kubectl.ok("get", "events", "web.pulled", "-o", "name").stdout().trim());

        server.putPluginBack(aside);
        Result back = await("the core event served again through events.k8s.io", () -> kubectl.run("get",
                "events.v1.events.k8s.io", "web.pulled", "-o", "jsonpath={.note}"), r -> r.exitCode() == 0);
        assertEquals("image pulled", back.stdout().trim());
    }

    private void assertResource(String group, String line) throws Exception {
        Result r = kubectl.ok("api-resources", "--api-group=" + group);
        assertTrue(r.stdout().lines().anyMatch(l -> l.matches(line)), line + " in\n" + r.stdout());
    }
}
