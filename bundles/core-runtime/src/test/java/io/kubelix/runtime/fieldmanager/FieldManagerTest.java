package io.kubelix.runtime.fieldmanager;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.schema.ResourceSchema;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Server-side apply and managedFields on a Deployment-shaped schema, against kube's documented behaviour. */
class FieldManagerTest {
    private static final ObjectMapper YAML = new YAMLMapper();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TIME = "2026-01-02T03:04:05Z";
    private static final ResourceSchema SCHEMA = load();

    private final FieldManager fm = new FieldManager(SCHEMA, "apps/v1", "", FieldSet.of(List.of(PathElement.field("status"))),
            () -> TIME);

    private static final String DEPLOYMENT = """
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: web
              labels: {app: web}
            spec:
              replicas: 2
              selector: {matchLabels: {app: web}}
              template:
                metadata:
                  labels: {app: web}
                spec:
                  containers:
                  - name: nginx
                    image: nginx:1
                    ports:
                    - containerPort: 80
            """;

    /** {@link #DEPLOYMENT} without replicas, the deployment's labels and the container's ports. */
    private static final String WITHOUT_REPLICAS_LABELS_PORTS = """
            apiVersion: apps/v1
            kind: Deployment
            metadata: {name: web}
            spec:
              selector: {matchLabels: {app: web}}
              template:
                metadata:
                  labels: {app: web}
                spec:
                  containers:
                  - name: nginx
                    image: nginx:1
            """;

    @Test
    void createRecordsAnUpdateEntryInKubesShape() throws Exception {
        ObjectNode created = fm.update(null, obj(DEPLOYMENT), "kubectl-create");
        JsonNode entries = created.path("metadata").path("managedFields");
        assertEquals(1, entries.size());
        JsonNode e = entries.get(0);
        assertEquals("kubectl-create", e.path("manager").asText());
        assertEquals("Update", e.path("operation").asText());
        assertEquals("apps/v1", e.path("apiVersion").asText());
        assertEquals(TIME, e.path("time").asText());
        assertEquals("FieldsV1", e.path("fieldsType").asText());
        assertFalse(e.has("subresource"));
        assertEquals("{\"f:metadata\":{\"f:labels\":{\".\":{},\"f:app\":{}}},\"f:spec\":{\"f:replicas\":{},"
                + "\"f:selector\":{},\"f:template\":{\"f:metadata\":{\"f:labels\":{\".\":{},\"f:app\":{}}},"
                + "\"f:spec\":{\"f:containers\":{\"k:{\\\"name\\\":\\\"nginx\\\"}\":{\".\":{},\"f:image\":{},"
                + "\"f:name\":{},\"f:ports\":{\".\":{},\"k:{\\\"containerPort\\\":80,\\\"protocol\\\":\\\"TCP\\\"}\":"
                + "{\".\":{},\"f:containerPort\":{}}}}}}}}}", JSON.writeValueAsString(e.get("fieldsV1")));
    }

    @Test
    void applyCreatesWithAnApplyEntry() throws Exception {
        ObjectNode created = fm.apply(null, obj(DEPLOYMENT), "kubectl", false);
        assertEquals(2, created.path("spec").path("replicas").asInt());
        JsonNode e = created.path("metadata").path("managedFields").get(0);
        assertEquals("kubectl", e.path("manager").asText());
        assertEquals("Apply", e.path("operation").asText());
        assertEquals("apps/v1", e.path("apiVersion").asText());
        // An applier owns what it applied: maps are not members, list items are.
        assertEquals("{\"f:metadata\":{\"f:labels\":{\"f:app\":{}}},\"f:spec\":{\"f:replicas\":{},\"f:selector\":{},"
                + "\"f:template\":{\"f:metadata\":{\"f:labels\":{\"f:app\":{}}},\"f:spec\":{\"f:containers\":"
                + "{\"k:{\\\"name\\\":\\\"nginx\\\"}\":{\".\":{},\"f:image\":{},\"f:name\":{},\"f:ports\":"
                + "{\"k:{\\\"containerPort\\\":80,\\\"protocol\\\":\\\"TCP\\\"}\":{\".\":{},\"f:containerPort\":{}}}}}}}}}",
                JSON.writeValueAsString(e.get("fieldsV1")));
    }

    @Test
    void applyMergesMapListsByKeyAndKeepsOtherManagersItems() throws Exception {
        ObjectNode live = fm.apply(null, obj(DEPLOYMENT), "a", false);
        ObjectNode second = obj("""
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web}
                spec:
                  template:
                    spec:
                      containers:
                      - name: sidecar
                        image: busybox
                      - name: nginx
                        env: [{name: MODE, value: fast}]
                """);
        ObjectNode merged = fm.apply(live, second, "b", false);
        JsonNode containers = merged.path("spec").path("template").path("spec").path("containers");
        assertEquals(2, containers.size());
        assertEquals("sidecar", containers.get(0).path("name").asText());
        assertEquals("nginx", containers.get(1).path("name").asText());
        assertEquals("nginx:1", containers.get(1).path("image").asText(), "a's field stays");
        assertEquals("fast", containers.get(1).path("env").get(0).path("value").asText());
        assertEquals(2, merged.path("spec").path("replicas").asInt());
        assertEquals(2, merged.path("metadata").path("managedFields").size());
    }

    @Test
    void atomicValuesAreReplacedAndGranularMapsMerged() throws Exception {
        ObjectNode live = fm.update(null, obj("""
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web, labels: {a: "1"}}
                spec:
                  selector: {matchLabels: {app: web, tier: front}}
                  template:
                    spec:
                      nodeSelector: {zone: x, disk: ssd}
                      containers: [{name: c, image: i, args: [x, y]}]
                """), "creator");
        ObjectNode merged = fm.apply(live, obj("""
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web, labels: {b: "2"}}
                spec:
                  selector: {matchLabels: {app: web}}
                  template:
                    spec:
                      nodeSelector: {zone: y}
                      containers: [{name: c, args: [z]}]
                """), "applier", true);
        assertEquals(obj("{a: '1', b: '2'}"), merged.path("metadata").path("labels"));
        assertEquals(obj("{matchLabels: {app: web}}"), merged.path("spec").path("selector"));
        assertEquals(obj("{zone: y}"), merged.path("spec").path("template").path("spec").path("nodeSelector"));
        assertEquals("[\"z\"]", merged.path("spec").path("template").path("spec").path("containers").get(0)
                .path("args").toString());
        assertEquals("i", merged.path("spec").path("template").path("spec").path("containers").get(0)
                .path("image").asText());
    }

    @Test
    void setListsMergeAsSets() throws Exception {
        ObjectNode live = fm.apply(null, obj("{apiVersion: apps/v1, kind: Deployment, metadata: {name: w, finalizers: [a, b]}}"),
                "one", false);
        ObjectNode merged = fm.apply(live, obj("{apiVersion: apps/v1, kind: Deployment, metadata: {name: w, finalizers: [c, b]}}"),
                "two", false);
        assertEquals("[\"a\",\"c\",\"b\"]", merged.path("metadata").path("finalizers").toString());
        String two = entry(merged, "two").path("fieldsV1").toString();
        assertTrue(two.contains("\"v:\\\"c\\\"\""), two);
    }

    @Test
    void fieldsNoLongerAppliedAreRemovedUnlessOwnedByAnother() throws Exception {
        ObjectNode live = fm.apply(null, obj(DEPLOYMENT), "kubectl", false);
        ObjectNode shared = fm.apply(live, obj("""
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web}
                spec: {replicas: 2}
                """), "other", false);
        ObjectNode dropped = fm.apply(shared, obj(WITHOUT_REPLICAS_LABELS_PORTS), "kubectl", false);
        assertEquals(2, dropped.path("spec").path("replicas").asInt(), "still owned by other");
        assertFalse(dropped.path("metadata").has("labels"), "labels dropped by the only owner");
        JsonNode nginx = dropped.path("spec").path("template").path("spec").path("containers").get(0);
        assertFalse(nginx.has("ports"), "ports dropped");
        assertEquals("nginx:1", nginx.path("image").asText());
        ObjectNode again = fm.apply(dropped, obj(WITHOUT_REPLICAS_LABELS_PORTS), "other", false);
        assertFalse(again.path("spec").has("replicas"), "other gave up replicas and nobody else owns them");
    }

    @Test
    void aDroppedItemStaysWithWhatAnotherManagerOwnsInIt() throws Exception {
        ObjectNode live = fm.apply(null, obj(DEPLOYMENT), "app", false);
        ObjectNode withEnv = fm.apply(live, obj("""
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web}
                spec:
                  template:
                    spec:
                      containers:
                      - name: nginx
                        env: [{name: MODE, value: fast}]
                """), "mesh", false);
        // a field set by a plain update, owned by nobody once the applier stops applying the item, stays too
        ObjectNode defaulted = withEnv.deepCopy();
        ((ObjectNode) defaulted.at("/spec/template/spec/containers/0")).put("imagePullPolicy", "Always");
        ObjectNode live2 = fm.update(withEnv, defaulted, "defaulter");
        ObjectNode config = obj(DEPLOYMENT);
        ((ObjectNode) config.at("/spec/template/spec")).putArray("containers").addObject().put("name", "other")
                .put("image", "other:1");
        ObjectNode pruned = fm.apply(live2, config, "app", false);
        JsonNode containers = pruned.at("/spec/template/spec/containers");
        assertEquals(2, containers.size(), containers.toString());
        JsonNode nginx = containers.get(0);
        assertEquals("nginx", nginx.path("name").asText(), "the key stays");
        assertEquals("fast", nginx.at("/env/0/value").asText(), "mesh's env stays");
        assertEquals("Always", nginx.path("imagePullPolicy").asText(), "the defaulter's field stays");
        assertFalse(nginx.has("image"), "app's image goes");
        assertFalse(nginx.has("ports"), "app's ports go");
        assertEquals("other", containers.get(1).path("name").asText());

        ObjectNode noMesh = fm.apply(pruned, obj("{apiVersion: apps/v1, kind: Deployment, metadata: {name: web}}"),
                "mesh", false);
        assertFalse(noMesh.at("/spec/template/spec/containers/0").has("env"), noMesh.toString());
    }

    @Test
    void forceTakesFieldsFromUpdatersAndSubresourcesArePrinted() throws Exception {
        ObjectNode live = fm.update(null, obj(DEPLOYMENT), "kubectl-create");
        FieldManager status = new FieldManager(SCHEMA, "apps/v1", "status", FieldManager.resetFields(SCHEMA, "status", true),
                () -> TIME);
        ObjectNode withStatus = live.deepCopy();
        withStatus.putObject("status").put("replicas", 1);
        ObjectNode reported = status.update(live, withStatus, "controller");
        StatusException e = assertThrows(StatusException.class, () -> status.apply(reported, obj(
                "{apiVersion: apps/v1, kind: Deployment, metadata: {name: web}, status: {replicas: 3}}"), "other", false));
        assertEquals("Apply failed with 1 conflict: conflict with \"controller\" with subresource \"status\" using "
                + "apps/v1: .status.replicas", e.getMessage());
        ObjectNode forced = fm.apply(live, obj("{apiVersion: apps/v1, kind: Deployment, metadata: {name: web},"
                + " spec: {replicas: 7}}"), "kubectl", true);
        assertEquals(7, forced.at("/spec/replicas").asInt());
        assertFalse(entry(forced, "kubectl-create").path("fieldsV1").path("f:spec").has("f:replicas"));
    }

    @Test
    void conflictingApplyIs409WithKubesMessageAndCauses() throws Exception {
        ObjectNode live = fm.apply(null, obj(DEPLOYMENT), "a", false);
        ObjectNode config = obj("{apiVersion: apps/v1, kind: Deployment, metadata: {name: web}, spec: {replicas: 5}}");
        StatusException e = assertThrows(StatusException.class, () -> fm.apply(live, config, "b", false));
        assertEquals(409, e.code());
        assertEquals("Apply failed with 1 conflict: conflict with \"a\": .spec.replicas", e.getMessage());
        assertEquals(1, e.details().causes().size());
        assertEquals("FieldManagerConflict", e.details().causes().get(0).type());
        assertEquals(".spec.replicas", e.details().causes().get(0).field());
        assertEquals("conflict with \"a\"", e.details().causes().get(0).message());

        ObjectNode forced = fm.apply(live, config, "b", true);
        assertEquals(5, forced.path("spec").path("replicas").asInt());
        assertFalse(entry(forced, "a").path("fieldsV1").path("f:spec").has("f:replicas"), "a lost replicas");
        assertTrue(entry(forced, "b").path("fieldsV1").path("f:spec").has("f:replicas"));
    }

    @Test
    void manyConflictsAreListedPerManager() throws Exception {
        ObjectNode live = fm.apply(null, obj(DEPLOYMENT), "a", false);
        ObjectNode config = obj("""
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web, labels: {app: other}}
                spec: {replicas: 5}
                """);
        StatusException e = assertThrows(StatusException.class, () -> fm.apply(live, config, "b", false));
        assertEquals("Apply failed with 2 conflicts: conflicts with \"a\":\n- .metadata.labels.app\n- .spec.replicas",
                e.getMessage());
    }

    @Test
    void sameValueIsSharedOwnership() throws Exception {
        ObjectNode live = fm.apply(null, obj(DEPLOYMENT), "a", false);
        ObjectNode both = fm.apply(live, obj("{apiVersion: apps/v1, kind: Deployment, metadata: {name: web}, spec: {replicas: 2}}"),
                "b", false);
        assertTrue(entry(both, "a").path("fieldsV1").path("f:spec").has("f:replicas"));
        assertTrue(entry(both, "b").path("fieldsV1").path("f:spec").has("f:replicas"));
    }

    @Test
    void anUpdateTakesOwnershipOfWhatItChanges() throws Exception {
        ObjectNode live = fm.apply(null, obj(DEPLOYMENT), "kubectl", false);
        ObjectNode edited = live.deepCopy();
        ((ObjectNode) edited.get("spec")).put("replicas", 3);
        ObjectNode updated = fm.update(live, edited, "kubectl-edit");
        JsonNode edit = entry(updated, "kubectl-edit");
        assertEquals("Update", edit.path("operation").asText());
        assertEquals("{\"f:spec\":{\"f:replicas\":{}}}", edit.path("fieldsV1").toString());
        assertFalse(entry(updated, "kubectl").path("fieldsV1").path("f:spec").has("f:replicas"));

        ObjectNode reapply = obj(DEPLOYMENT);
        StatusException e = assertThrows(StatusException.class, () -> fm.apply(updated, reapply, "kubectl", false));
        assertEquals("Apply failed with 1 conflict: conflict with \"kubectl-edit\" using apps/v1: .spec.replicas",
                e.getMessage());
    }

    @Test
    void updatesOfOneManagerAccumulate() throws Exception {
        ObjectNode live = fm.update(null, obj(DEPLOYMENT), "creator");
        ObjectNode a = live.deepCopy();
        ((ObjectNode) a.get("spec")).put("paused", true);
        ObjectNode one = fm.update(live, a, "ctl");
        ObjectNode b = one.deepCopy();
        ((ObjectNode) b.get("metadata").get("labels")).put("x", "y");
        ObjectNode two = fm.update(one, b, "ctl");
        String fields = entry(two, "ctl").path("fieldsV1").toString();
        assertTrue(fields.contains("f:paused") && fields.contains("f:x"), fields);
        ObjectNode unchanged = fm.update(two, two.deepCopy(), "third");
        assertEquals(2, unchanged.path("metadata").path("managedFields").size(), "a no-op records no manager");
    }

    @Test
    void clientsMayResetManagedFieldsAndInvalidOnesAreIgnored() throws Exception {
        ObjectNode live = fm.apply(null, obj(DEPLOYMENT), "kubectl", false);
        ObjectNode reset = live.deepCopy();
        ((ObjectNode) reset.get("metadata")).set("managedFields", JSON.readTree("[{}]"));
        assertFalse(fm.update(live, reset, "x").path("metadata").has("managedFields"));

        ObjectNode invalid = live.deepCopy();
        ((ObjectNode) invalid.get("metadata")).set("managedFields",
                JSON.readTree("[{\"manager\":\"m\",\"operation\":\"Bogus\",\"apiVersion\":\"apps/v1\",\"fieldsType\":\"FieldsV1\"}]"));
        ObjectNode kept = fm.update(live, invalid, "x");
        assertEquals(live.path("metadata").path("managedFields"), kept.path("metadata").path("managedFields"));

        ObjectNode valid = live.deepCopy();
        ((ObjectNode) valid.get("metadata")).set("managedFields", JSON.readTree("[{\"manager\":\"m\",\"operation\":"
                + "\"Update\",\"apiVersion\":\"apps/v1\",\"fieldsType\":\"FieldsV1\",\"fieldsV1\":{\"f:spec\":{\"f:replicas\":{}}}}]"));
        JsonNode set = fm.update(live, valid, "x").path("metadata").path("managedFields");
        assertEquals(1, set.size());
        assertEquals("m", set.get(0).path("manager").asText());
    }

    @Test
    void firstApplyToAnUnmanagedObjectConflictsWithBeforeFirstApply() throws Exception {
        ObjectNode live = obj(DEPLOYMENT);
        ObjectNode config = obj("{apiVersion: apps/v1, kind: Deployment, metadata: {name: web}, spec: {replicas: 9}}");
        StatusException e = assertThrows(StatusException.class, () -> fm.apply(live, config, "a", false));
        assertEquals("Apply failed with 1 conflict: conflict with \"before-first-apply\" using apps/v1: .spec.replicas",
                e.getMessage());
        ObjectNode same = fm.apply(live, obj("{apiVersion: apps/v1, kind: Deployment, metadata: {name: web}, spec: {replicas: 2}}"),
                "a", false);
        assertEquals("before-first-apply", same.path("metadata").path("managedFields").get(1).path("manager").asText());
    }

    @Test
    void kubectlUpgradesFromClientSideApply() throws Exception {
        ObjectNode csa = obj(DEPLOYMENT);
        ObjectNode lastApplied = obj(DEPLOYMENT);
        ((ObjectNode) csa.get("metadata")).putObject("annotations").put(FieldManager.LAST_APPLIED, lastApplied.toString());
        ObjectNode live = fm.update(null, csa, "kubectl-client-side-apply");

        ObjectNode config = obj(DEPLOYMENT);
        ((ObjectNode) config.get("spec")).put("replicas", 4);
        ObjectNode applied = fm.apply(live, config, "kubectl", false);
        assertEquals(4, applied.path("spec").path("replicas").asInt());
        JsonNode annotation = obj(applied.path("metadata").path("annotations").path(FieldManager.LAST_APPLIED).asText());
        assertEquals(4, annotation.path("spec").path("replicas").asInt(), "the annotation follows the apply");

        assertThrows(StatusException.class, () -> fm.apply(live, config, "someone-else", false),
                "only kubectl's own apply upgrades");
    }

    @Test
    void statusWritesRecordTheSubresourceAndIgnoreSpec() throws Exception {
        ObjectNode live = fm.update(null, obj(DEPLOYMENT), "creator");
        FieldManager status = new FieldManager(SCHEMA, "apps/v1", "status",
                FieldManager.resetFields(SCHEMA, "status", true), () -> TIME);
        ObjectNode changed = live.deepCopy();
        changed.putObject("status").put("replicas", 2);
        ((ObjectNode) changed.get("spec")).put("replicas", 7);
        JsonNode e = entry(status.update(live, changed, "controller"), "controller");
        assertEquals("status", e.path("subresource").asText());
        assertEquals("{\"f:status\":{\"f:replicas\":{}}}", e.path("fieldsV1").toString());
        assertEquals("{\"f:status\":{}}", FieldManager.resetFields(SCHEMA, "", true).toString());
    }

    @Test
    void badConfigurationsAre400() throws Exception {
        StatusException version = assertThrows(StatusException.class, () -> fm.apply(null,
                obj("{apiVersion: v1, kind: Deployment, metadata: {name: w}}"), "a", false));
        assertEquals("Incorrect version specified in apply patch. Specified patch version: v1, expected: apps/v1",
                version.getMessage());
        StatusException key = assertThrows(StatusException.class, () -> fm.apply(null, obj("""
                {apiVersion: apps/v1, kind: Deployment, metadata: {name: w},
                 spec: {template: {spec: {containers: [{image: x}]}}}}
                """), "a", false));
        assertEquals(400, key.code());
        assertTrue(key.getMessage().endsWith(".spec.template.spec.containers: element 0: associative list with keys "
                + "has an element that omits key field \"name\" (and doesn't have default value)"), key.getMessage());
        StatusException type = assertThrows(StatusException.class, () -> fm.apply(null,
                obj("{apiVersion: apps/v1, kind: Deployment, metadata: {name: w}, spec: {replicas: many}}"), "a", false));
        assertTrue(type.getMessage().endsWith(".spec.replicas: expected numeric (int or float), got string"),
                type.getMessage());
        StatusException managed = assertThrows(StatusException.class, () -> fm.apply(null,
                obj("{apiVersion: apps/v1, kind: Deployment, metadata: {name: w, managedFields: []}}"), "a", false));
        assertEquals("metadata.managedFields must be nil", managed.getMessage());
        StatusException duplicate = assertThrows(StatusException.class, () -> fm.apply(null, obj("""
                {apiVersion: apps/v1, kind: Deployment, metadata: {name: w},
                 spec: {template: {spec: {containers: [{name: x}, {name: x}]}}}}
                """), "a", false));
        assertTrue(duplicate.getMessage().endsWith("duplicate entries for key [name=\"x\"]"), duplicate.getMessage());
    }

    @Test
    void withoutSchemaMapsAreGranularAndListsAtomic() throws Exception {
        FieldManager untyped = new FieldManager(null, "example.com/v1", "", new FieldSet(), () -> TIME);
        ObjectNode live = untyped.apply(null, obj("{apiVersion: example.com/v1, kind: W, metadata: {name: w},"
                + " spec: {a: 1, list: [1, 2], m: {x: 1}}}"), "one", false);
        ObjectNode merged = untyped.apply(live, obj("{apiVersion: example.com/v1, kind: W, metadata: {name: w},"
                + " spec: {b: 2, m: {y: 2}}}"), "two", false);
        assertEquals(obj("{a: 1, list: [1, 2], m: {x: 1, y: 2}, b: 2}"), merged.get("spec"));
        StatusException e = assertThrows(StatusException.class, () -> untyped.apply(merged, obj(
                "{apiVersion: example.com/v1, kind: W, metadata: {name: w}, spec: {list: [3]}}"), "two", false));
        assertEquals("Apply failed with 1 conflict: conflict with \"one\": .spec.list", e.getMessage());
    }

    @Test
    void theOldestOfMoreThanTenUpdatersMergeIntoAncientChanges() throws Exception {
        int[] second = {0};
        FieldManager ticking = new FieldManager(SCHEMA, "apps/v1", "", new FieldSet(),
                () -> String.format("2026-01-01T00:00:%02dZ", second[0]++));
        ObjectNode obj = ticking.update(null, obj(DEPLOYMENT), "creator");
        for (int i = 0; i < 11; i++) {
            ObjectNode next = obj.deepCopy();
            ((ObjectNode) next.at("/metadata/labels")).put("l" + i, "x");
            obj = ticking.update(obj, next, "m" + i);
        }
        JsonNode managed = obj.path("metadata").path("managedFields");
        assertEquals(10, managed.size(), managed.toString());
        JsonNode ancient = managed.get(0);
        assertEquals("ancient-changes", ancient.path("manager").asText(), managed.toString());
        assertEquals("2026-01-01T00:00:02Z", ancient.path("time").asText(), "the time of the latest merged update");
        assertTrue(ancient.path("fieldsV1").path("f:metadata").path("f:labels").has("f:l0"), ancient.toString());
        assertTrue(ancient.path("fieldsV1").path("f:spec").has("f:replicas"), "the creator's fields");
    }

    @Test
    void managerFromUserAgent() {
        assertEquals("kubectl-edit", FieldManager.managerOrUserAgent("", "kubectl-edit/v1.31.0 (linux/amd64) kubernetes/abc"));
        assertEquals("mgr", FieldManager.managerOrUserAgent("mgr", "kubectl/v1.31.0"));
        assertEquals("", FieldManager.managerOrUserAgent(null, null));
    }

    private static JsonNode entry(ObjectNode obj, String manager) {
        for (JsonNode e : obj.path("metadata").path("managedFields")) {
            if (e.path("manager").asText().equals(manager)) {
                return e;
            }
        }
        throw new AssertionError("no entry for " + manager + " in " + obj.path("metadata").path("managedFields"));
    }

    private static ObjectNode obj(String yaml) throws Exception {
        return (ObjectNode) YAML.readTree(yaml);
    }

    private static ResourceSchema load() {
        try (InputStream in = FieldManagerTest.class.getResourceAsStream("/fieldmanager/schemas.json")) {
            return ResourceSchema.load(in, "test.v1.Deployment");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
