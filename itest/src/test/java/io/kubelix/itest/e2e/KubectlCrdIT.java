package io.kubelix.itest.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.itest.e2e.Kubectl.Result;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * CustomResourceDefinitions (the apiextensions plugin) in the built distribution, driven by the
 * real kubectl: a CRD applied and waited for ({@code kubectl wait --for condition=established}),
 * its accepted names and stored versions, custom objects created, listed with printer columns and
 * short names, selected by label and field (a declared selectable field too), patched, pruned, defaulted, refused with kube's 422s
 * from the schema, their {@code status} and {@code scale} subresources, {@code get all}, a second
 * served version, a CRD refused by kube's validation, a name conflict, deleting the CRD, which
 * deletes its objects and its API, a strategic merge patch refused with kube's 415, and a CRD whose
 * deprecated version is converted by a conversion webhook the test serves over HTTPS. The methods
 * run in order on one server.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KubectlCrdIT extends KubectlSuite {
    private static final String CRD = """
            apiVersion: apiextensions.k8s.io/v1
            kind: CustomResourceDefinition
            metadata:
              name: crontabs.stable.example.com
            spec:
              group: stable.example.com
              scope: Namespaced
              names:
                plural: crontabs
                singular: crontab
                kind: CronTab
                shortNames: [ct]
                categories: [all]
              versions:
              - name: v1
                served: true
                storage: true
                subresources:
                  status: {}
                  scale:
                    specReplicasPath: .spec.replicas
                    statusReplicasPath: .status.replicas
                selectableFields:
                - jsonPath: .spec.color
                additionalPrinterColumns:
                - name: Spec
                  type: string
                  jsonPath: .spec.cronSpec
                - name: Replicas
                  type: integer
                  jsonPath: .spec.replicas
                - name: Age
                  type: date
                  jsonPath: .metadata.creationTimestamp
                schema:
                  openAPIV3Schema:
                    type: object
                    properties:
                      spec:
                        type: object
                        x-kubernetes-validations:
                        - rule: "!has(self.image) || !self.image.endsWith(':latest')"
                          message: images must name a tag other than latest
                        properties:
                          cronSpec:
                            type: string
                            pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$'
                          image:
                            type: string
                          replicas:
                            type: integer
                            minimum: 1
                            maximum: 10
                            default: 1
                          color:
                            type: string
                            enum: [red, green]
                      status:
                        type: object
                        properties:
                          replicas:
                            type: integer
              - name: v1beta1
                served: true
                storage: false
                schema:
                  openAPIV3Schema:
                    type: object
                    x-kubernetes-preserve-unknown-fields: true
            """;

    KubectlCrdIT() {
        super("crd", "customresourcedefinitions");
    }

    /** A CRD of group stable.example.com: its name, scope, names and versions, each a YAML flow map. */
    private static String crdYaml(String name, String scope, String names, String... versions) {
        StringBuilder b = new StringBuilder("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n"
                + "metadata:\n  name: " + name + "\nspec:\n  group: stable.example.com\n  scope: " + scope
                + "\n  names: " + names + "\n  versions:\n");
        for (String v : versions) {
            b.append("  - ").append(v).append('\n');
        }
        return b.toString();
    }

    /** A served version of a CRD, as a YAML flow map. */
    private static String version(String name, boolean storage, String openAPIV3Schema) {
        return "{name: " + name + ", served: true, storage: " + storage + ", schema: {openAPIV3Schema: " + openAPIV3Schema + "}}";
    }

    private static String cronTab(String name, String spec) {
        return "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: " + name
                + "\n  labels:\n    app: " + name + "\nspec:\n" + spec;
    }

    @Test
    @Order(1)
    void applyACrdAndWaitUntilItIsEstablished() throws Exception {
        assertEquals("customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created",
                kubectl.ok("apply", "-f", write("crd.yaml", CRD).toString()).stdout().trim());
        assertEquals("customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com condition met",
                kubectl.ok("wait", "--for", "condition=established", "--timeout=30s",
                        "crd/crontabs.stable.example.com").stdout().trim());

        JsonNode crd = JSON.readTree(kubectl.ok("get", "crd", "crontabs.stable.example.com", "-o", "json").stdout());
        JsonNode status = crd.path("status");
        assertEquals("CronTab", status.path("acceptedNames").path("kind").asText(), crd::toString);
        assertEquals("CronTabList", status.path("acceptedNames").path("listKind").asText(), crd::toString);
        assertEquals("[\"ct\"]", status.path("acceptedNames").path("shortNames").toString(), crd::toString);
        assertEquals("[\"v1\"]", status.path("storedVersions").toString(), crd::toString);
        assertEquals("None", crd.path("spec").path("conversion").path("strategy").asText(), crd::toString);
        for (JsonNode c : status.path("conditions")) {
            if (c.path("type").asText().equals("NamesAccepted")) {
                assertEquals("True", c.path("status").asText(), crd::toString);
                assertEquals("NoConflicts", c.path("reason").asText(), crd::toString);
            }
        }

        List<String> lines = kubectl.ok("get", "crds").stdout().lines().toList();
        assertTrue(lines.get(0).matches("NAME\\s+CREATED AT"), lines::toString);
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("crontabs.stable.example.com ")), lines::toString);
        String resources = kubectl.ok("api-resources", "--api-group=stable.example.com").stdout();
        assertTrue(resources.lines().anyMatch(l -> l.matches("crontabs\\s+ct\\s+stable.example.com/v1\\s+true\\s+CronTab")),
                resources);
    }

    @Test
    @Order(2)
    void customObjectsAreServedWithPrinterColumnsShortNamesAndDefaults() throws Exception {
        assertEquals("crontab.stable.example.com/nightly created", kubectl.ok("apply", "-f", write("nightly.yaml",
                cronTab("nightly", "  cronSpec: \"0 3 * * *\"\n  image: backup:1\n  color: red\n")).toString()).stdout().trim());
        assertEquals("crontab.stable.example.com/hourly created", kubectl.ok("apply", "-f", write("hourly.yaml",
                cronTab("hourly", "  cronSpec: \"0 * * * *\"\n  image: sync:2\n  replicas: 3\n")).toString()).stdout().trim());

        List<String> lines = kubectl.ok("get", "ct").stdout().lines().toList();
        assertTrue(lines.get(0).matches("NAME\\s+SPEC\\s+REPLICAS\\s+AGE"), lines::toString);
        assertTrue(lines.get(1).matches("hourly\\s+0 \\* \\* \\* \\*\\s+3\\s+\\d+s"), lines::toString);
        assertTrue(lines.get(2).matches("nightly\\s+0 3 \\* \\* \\*\\s+1\\s+\\d+s"), lines::toString);

        JsonNode nightly = JSON.readTree(kubectl.ok("get", "crontab", "nightly", "-o", "json").stdout());
        assertEquals(1, nightly.path("spec").path("replicas").asInt(), "defaulted: " + nightly);
        assertEquals(1, nightly.path("metadata").path("generation").asInt(), nightly::toString);

        assertEquals("hourly", kubectl.ok("get", "crontabs.stable.example.com", "-l", "app=hourly", "-o",
                "jsonpath={.items[*].metadata.name}").stdout().trim());
        assertEquals("nightly", kubectl.ok("get", "crontabs", "--field-selector", "metadata.name=nightly", "-o",
                "jsonpath={.items[*].metadata.name}").stdout().trim());

        assertEquals("nightly", kubectl.ok("get", "crontabs", "--field-selector", "spec.color=red", "-o",
                "jsonpath={.items[*].metadata.name}").stdout().trim());
        Result unknownField = kubectl.run("get", "crontabs", "--field-selector", "spec.image=x");
        assertTrue(unknownField.stderr().contains("field label not supported: spec.image"), unknownField::toString);

        String all = kubectl.ok("get", "all").stdout();
        assertTrue(all.lines().anyMatch(l -> l.startsWith("crontab.stable.example.com/nightly ")), all);

        JsonNode beta = JSON.readTree(kubectl.ok("get", "crontabs.v1beta1.stable.example.com", "hourly", "-o", "json").stdout());
        assertEquals("stable.example.com/v1beta1", beta.path("apiVersion").asText(), beta::toString);
        assertEquals("sync:2", beta.path("spec").path("image").asText(), beta::toString);
    }

    @Test
    @Order(3)
    void theSchemaRefusesInvalidObjectsAndPrunesUnknownFields() throws Exception {
        Result r = kubectl.run("apply", "-f", write("bad.yaml",
                cronTab("bad", "  cronSpec: \"every minute\"\n  replicas: 20\n  color: blue\n")).toString());
        assertNotEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stderr().contains("The CronTab \"bad\" is invalid: "), r::toString);
        assertTrue(r.stderr().contains("spec.replicas: Invalid value: 20: spec.replicas in body should be less than "
                + "or equal to 10"), r::toString);
        assertTrue(r.stderr().contains("spec.color: Unsupported value: \"blue\": supported values: \"red\", \"green\""),
                r::toString);
        assertTrue(r.stderr().contains("spec.cronSpec: Invalid value: \"every minute\": spec.cronSpec in body should match"),
                r::toString);

        r = kubectl.run("apply", "-f", write("latest.yaml", cronTab("latest", "  image: backup:latest\n")).toString());
        assertNotEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stderr().contains("The CronTab \"latest\" is invalid: spec: Invalid value: images must name a tag "
                + "other than latest"), r::toString);

        r = kubectl.run("apply", "-f", write("typed.yaml", cronTab("typed", "  replicas: \"two\"\n")).toString());
        assertTrue(r.stderr().contains("spec.replicas: Invalid value: \"string\": spec.replicas in body must be of type "
                + "integer: \"string\""), r::toString);

        r = kubectl.run("apply", "-f", write("unknown.yaml", cronTab("unknown", "  image: x\n  extra: 1\n")).toString());
        assertNotEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stderr().contains("unknown field \"spec.extra\""), r::toString);
        kubectl.ok("apply", "--validate=false", "-f", work.resolve("unknown.yaml").toString());
        JsonNode pruned = JSON.readTree(kubectl.ok("get", "ct", "unknown", "-o", "json").stdout());
        assertFalse(pruned.path("spec").has("extra"), pruned::toString);
        kubectl.ok("delete", "ct", "unknown");
    }

    @Test
    @Order(4)
    void patchStatusAndScaleSubresources() throws Exception {
        kubectl.ok("patch", "ct", "nightly", "--type=merge", "-p", "{\"spec\":{\"image\":\"backup:2\"},\"status\":{\"replicas\":9}}");
        JsonNode patched = JSON.readTree(kubectl.ok("get", "ct", "nightly", "-o", "json").stdout());
        assertEquals("backup:2", patched.path("spec").path("image").asText(), patched::toString);
        assertFalse(patched.has("status"), "status is the subresource's: " + patched);
        assertEquals(2, patched.path("metadata").path("generation").asInt(), patched::toString);

        kubectl.ok("patch", "ct", "nightly", "--subresource=status", "--type=merge", "-p", "{\"status\":{\"replicas\":1}}");
        JsonNode withStatus = JSON.readTree(kubectl.ok("get", "ct", "nightly", "-o", "json").stdout());
        assertEquals(1, withStatus.path("status").path("replicas").asInt(), withStatus::toString);
        assertEquals(2, withStatus.path("metadata").path("generation").asInt(), withStatus::toString);

        assertEquals("crontab.stable.example.com/nightly scaled", kubectl.ok("scale", "ct", "nightly", "--replicas=4")
                .stdout().trim());
        JsonNode scale = JSON.readTree(kubectl.ok("get", "--raw",
                "/apis/stable.example.com/v1/namespaces/default/crontabs/nightly/scale").stdout());
        assertEquals(4, scale.path("spec").path("replicas").asInt(), scale::toString);
        assertEquals(1, scale.path("status").path("replicas").asInt(), scale::toString);
    }

    @Test
    @Order(5)
    void namespaceDeletionAndTheGarbageCollectorSeeCustomObjects() throws Exception {
        kubectl.ok("create", "namespace", "tmp");
        kubectl.ok("apply", "-n", "tmp", "-f", work.resolve("nightly.yaml").toString());
        kubectl.ok("delete", "namespace", "tmp", "--timeout=60s");
        Result gone = kubectl.run("get", "ct", "-n", "tmp");
        assertTrue(gone.stdout().isEmpty() && gone.stderr().contains("No resources found"), gone::toString);

        String uid = kubectl.ok("create", "configmap", "owner", "-o", "jsonpath={.metadata.uid}").stdout();
        kubectl.ok("apply", "-f", write("owned.yaml", "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n"
                + "  name: owned\n  ownerReferences:\n  - apiVersion: v1\n    kind: ConfigMap\n    name: owner\n    uid: "
                + uid + "\nspec:\n  image: x\n").toString());
        kubectl.ok("delete", "configmap", "owner");
        await("the garbage collector deletes the owned crontab", () -> kubectl.run("get", "ct", "owned"),
                r -> r.exitCode() != 0 && r.stderr().contains("NotFound"));
    }

    @Test
    @Order(6)
    void explainWatchAndServerSideApply() throws Exception {
        String explain = kubectl.ok("explain", "crontabs.spec.replicas").stdout();
        assertTrue(explain.contains("KIND:       CronTab") && explain.contains("GROUP:      stable.example.com"), explain);
        assertTrue(explain.contains("FIELD: replicas <integer>"), explain);
        String crdExplain = kubectl.ok("explain", "crd.spec.names").stdout();
        assertTrue(crdExplain.contains("shortNames\t<[]string>"), crdExplain);

        Path out = work.resolve("watch.out");
        Process watch = kubectl.background(out, "get", "ct", "--watch", "--output-watch-events", "-o",
                "custom-columns=EVENT:.type,NAME:.object.metadata.name");
        try {
            await("the watch lists nightly", () -> Files.readString(out), s -> s.contains("nightly"));
            kubectl.ok("apply", "--server-side", "--field-manager=ops", "-f", write("weekly.yaml",
                    cronTab("weekly", "  cronSpec: \"0 0 * * 0\"\n  image: report:1\n")).toString());
            await("the watch sees weekly added", () -> Files.readString(out),
                    s -> s.lines().anyMatch(l -> l.matches("ADDED\\s+weekly")));
        } finally {
            watch.destroy();
        }
        JsonNode weekly = JSON.readTree(kubectl.ok("get", "ct", "weekly", "-o", "json", "--show-managed-fields").stdout());
        assertEquals("ops", weekly.path("metadata").path("managedFields").path(0).path("manager").asText(), weekly::toString);
        assertEquals("Apply", weekly.path("metadata").path("managedFields").path(0).path("operation").asText(), weekly::toString);
        Result conflict = kubectl.run("apply", "--server-side", "--field-manager=other", "-f", write("weekly2.yaml",
                cronTab("weekly", "  cronSpec: \"0 0 * * 0\"\n  image: report:2\n")).toString());
        assertNotEquals(0, conflict.exitCode(), conflict::toString);
        assertTrue(conflict.stderr().contains("Apply failed with 1 conflict"), conflict::toString);
        assertTrue(conflict.stderr().contains(".spec.image"), conflict::toString);
    }

    @Test
    @Order(7)
    void kubeValidatesCrdsAndReportsNameConflicts() throws Exception {
        Result r = kubectl.run("apply", "-f", write("twostorage.yaml", crdYaml("widgets.stable.example.com", "Cluster",
                "{plural: widgets, kind: Widget}", version("v1", true, "{type: object}"), version("v2", true, "{type: object}"))).toString());
        assertNotEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stderr().contains("The CustomResourceDefinition \"widgets.stable.example.com\" is invalid"), r::toString);
        assertTrue(r.stderr().contains("must have exactly one version marked as storage version"), r::toString);

        r = kubectl.run("apply", "-f", write("badname.yaml", crdYaml("gadgets.example.com", "Everywhere",
                "{plural: gadgets, kind: Gadget}", version("v1", true, "{type: object, properties: {spec: {}}}"))).toString());
        assertTrue(r.stderr().contains("metadata.name: Invalid value: \"gadgets.example.com\": must be "
                + "spec.names.plural+\".\"+spec.group"), r::toString);
        assertTrue(r.stderr().contains("spec.scope: Unsupported value: \"Everywhere\": supported values: \"Cluster\", "
                + "\"Namespaced\""), r::toString);
        assertTrue(r.stderr().contains("spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value: "
                + "must not be empty for specified object fields"), r::toString);

        r = kubectl.run("apply", "-f", write("badrule.yaml", crdYaml("gizmos.stable.example.com", "Cluster",
                "{plural: gizmos, kind: Gizmo}", version("v1", true, "{type: object, x-kubernetes-validations: [{rule: \"self.size >\"}]}"))).toString());
        assertNotEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stderr().contains("spec.versions[0].schema.openAPIV3Schema.x-kubernetes-validations[0].rule: Invalid "
                + "value: \"self.size >\": compilation failed: "), r::toString);

        kubectl.ok("apply", "-f", write("conflict.yaml", crdYaml("cronjobs.stable.example.com", "Namespaced",
                "{plural: cronjobs, kind: CronJob, shortNames: [ct]}", version("v1", true, "{type: object}"))).toString());
        JsonNode condition = await("NamesAccepted=False", () -> {
            JsonNode crd = JSON.readTree(kubectl.ok("get", "crd", "cronjobs.stable.example.com", "-o", "json").stdout());
            for (JsonNode c : crd.path("status").path("conditions")) {
                if (c.path("type").asText().equals("NamesAccepted")) {
                    return c;
                }
            }
            return null;
        }, c -> c != null && c.path("status").asText().equals("False"));
        assertEquals("ShortNamesConflict", condition.path("reason").asText(), condition::toString);
        assertEquals("\"ct\" is already in use", condition.path("message").asText(), condition::toString);
        kubectl.ok("delete", "crd", "cronjobs.stable.example.com");
    }

    @Test
    @Order(8)
    void deletingTheCrdDeletesItsObjectsAndItsApi() throws Exception {
        kubectl.ok("delete", "crd", "crontabs.stable.example.com", "--timeout=60s");
        Result r = kubectl.run("get", "crontabs.stable.example.com");
        assertNotEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stderr().contains("the server doesn't have a resource type \"crontabs\""), r::toString);

        // The same CRD again finds none of the old objects.
        kubectl.ok("apply", "-f", work.resolve("crd.yaml").toString());
        kubectl.ok("wait", "--for", "condition=established", "--timeout=30s", "crd/crontabs.stable.example.com");
        Result empty = await("crontabs served again", () -> kubectl.run("get", "ct"), x -> x.exitCode() == 0);
        assertTrue(empty.stderr().contains("No resources found in default namespace."), empty::toString);
    }

    @Test
    @Order(9)
    void aStrategicMergePatchIsUnsupported() throws Exception {
        kubectl.ok("apply", "-f", work.resolve("nightly.yaml").toString());
        Result r = kubectl.run("patch", "ct", "nightly", "--type=strategic", "-p", "{\"spec\":{\"image\":\"backup:3\"}}");
        assertNotEquals(0, r.exitCode(), r::toString);
        // kubectl words kube's 415 so
        assertTrue(r.stderr().contains("error: application/strategic-merge-patch+json is not supported by stable.example.com/v1, "
                + "Kind=CronTab: the body of the request was in an unknown format - accepted media types include: "
                + "application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml"), r::toString);
        kubectl.ok("patch", "ct", "nightly", "--type=json", "-p", "[{\"op\":\"replace\",\"path\":\"/spec/image\",\"value\":\"backup:3\"}]");
    }

    /** v1 has spec.count (a string), v2 spec.replicas (an integer): the webhook moves one to the other. */
    private static ObjectNode convert(JsonNode review) {
        String desired = review.at("/request/desiredAPIVersion").asText();
        ObjectNode out = JSON.createObjectNode().put("apiVersion", "apiextensions.k8s.io/v1").put("kind", "ConversionReview");
        ObjectNode response = out.putObject("response").put("uid", review.at("/request/uid").asText());
        response.putObject("result").put("status", "Success");
        for (JsonNode o : review.at("/request/objects")) {
            ObjectNode c = ((ObjectNode) o.deepCopy()).put("apiVersion", desired);
            ObjectNode spec = c.with("spec");
            if (desired.endsWith("/v2") && spec.has("count")) {
                spec.put("replicas", Integer.parseInt(spec.remove("count").asText()));
            } else if (desired.endsWith("/v1") && spec.has("replicas")) {
                spec.put("count", spec.remove("replicas").asText());
            }
            response.withArray("convertedObjects").add(c);
        }
        return out;
    }

    @Test
    @Order(10)
    void aDeprecatedVersionWarnsAndAWebhookConvertsIt() throws Exception {
        try (AdmissionWebhookServer webhook = new AdmissionWebhookServer(work.resolve("conversion-pki"))) {
            webhook.answer("/convert", KubectlCrdIT::convert);
            kubectl.ok("apply", "-f", write("widgets.yaml", """
                    apiVersion: apiextensions.k8s.io/v1
                    kind: CustomResourceDefinition
                    metadata:
                      name: widgets.stable.example.com
                    spec:
                      group: stable.example.com
                      scope: Namespaced
                      names: {plural: widgets, kind: Widget}
                      conversion:
                        strategy: Webhook
                        webhook:
                          conversionReviewVersions: [v1]
                          clientConfig:
                            url: https://127.0.0.1:%d/convert
                            caBundle: %s
                      versions:
                      - name: v1
                        served: true
                        storage: false
                        deprecated: true
                        schema:
                          openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {count: {type: string}}}}}
                      - name: v2
                        served: true
                        storage: true
                        schema:
                          openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {replicas: {type: integer}}}}}
                    """.formatted(webhook.port(), webhook.caBundle())).toString());
            kubectl.ok("wait", "--for", "condition=established", "--timeout=30s", "crd/widgets.stable.example.com");

            Result created = await("widgets served", () -> kubectl.run("apply", "-f", write("w1.yaml",
                    "apiVersion: stable.example.com/v1\nkind: Widget\nmetadata:\n  name: w1\nspec:\n  count: \"3\"\n").toString()),
                    x -> x.exitCode() == 0);
            assertTrue(created.stderr().contains("Warning: stable.example.com/v1 Widget is deprecated; use stable.example.com/v2 "
                    + "Widget"), created::toString);
            kubectl.ok("apply", "-f", write("w2.yaml",
                    "apiVersion: stable.example.com/v2\nkind: Widget\nmetadata:\n  name: w2\nspec:\n  replicas: 5\n").toString());

            JsonNode w1 = JSON.readTree(kubectl.ok("get", "widgets.v2.stable.example.com", "w1", "-o", "json").stdout());
            assertEquals(3, w1.at("/spec/replicas").asInt(), "stored as v2 through the webhook: " + w1);
            int before = webhook.reviews("/convert").size();
            Result list = kubectl.ok("get", "widgets.v1.stable.example.com", "-o", "json");
            JsonNode items = JSON.readTree(list.stdout()).path("items");
            assertEquals("3", items.at("/0/spec/count").asText(), items::toString);
            assertEquals("5", items.at("/1/spec/count").asText(), items::toString);
            assertTrue(list.stderr().contains("Warning: stable.example.com/v1 Widget is deprecated"), list::toString);
            List<JsonNode> reviews = webhook.reviews("/convert").subList(before, webhook.reviews("/convert").size());
            assertTrue(reviews.stream().anyMatch(r -> r.at("/request/objects").size() == 2
                    && r.at("/request/desiredAPIVersion").asText().equals("stable.example.com/v1")), "a list in one review: " + reviews);

            webhook.answer("/convert", review -> {
                ObjectNode out = convert(review);
                out.with("response").putObject("result").put("status", "Failure").put("message", "widgets are out of stock");
                return out;
            });
            Result failed = kubectl.run("get", "widgets.v1.stable.example.com", "w1");
            assertNotEquals(0, failed.exitCode(), failed::toString);
            assertTrue(failed.stderr().contains("Error from server (InternalError): Internal error occurred: conversion webhook "
                    + "for stable.example.com/v2, Kind=Widget failed: widgets are out of stock"), failed::toString);
            webhook.answer("/convert", KubectlCrdIT::convert);
            kubectl.ok("delete", "crd", "widgets.stable.example.com", "--timeout=60s");
        }
    }
}
