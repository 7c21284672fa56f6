package io.kubelix.itest.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import io.kubelix.itest.e2e.Kubectl.Result;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * API machinery through the real kubectl against the built distribution (issue 3's proof): patches
 * of the three types, label/annotate, edit, diff, chunked lists, label and field selectors,
 * deletion with {@code --cascade=orphan|foreground}, {@code --dry-run=server}, watches with a
 * selector and with a finalizer, server-side apply and its diff, bad input, and the built-in kinds' schemas ({@code kubectl explain},
 * {@code apply} of a misspelled field under each {@code --validate}). Every check is on what kubectl prints, mostly its
 * {@code -o json}. One server for the class; each method works in its own namespace.
 * Server-side apply itself is {@link KubectlServerSideApplyIT}'s; here only its use by
 * {@code apply --server-side} and {@code diff --server-side}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KubectlApiMachineryIT extends KubectlSuite {
    /** The root CA publisher's ConfigMap, in every namespace as in a cluster. */
    private static final String ROOT_CA = "kube-root-ca.crt";

    KubectlApiMachineryIT() {
        super("apimachinery", null);
    }

    @Test
    @Order(1)
    void patchJsonMergeAndStrategic() throws Exception {
        String ns = namespace("am-patch");
        kubectl.ok("-n", ns, "create", "configmap", "p", "--from-literal=a=1", "--from-literal=b=2");

        // RFC 6902: replace one key, add another
        Result json = kubectl.ok("-n", ns, "patch", "configmap", "p", "--type=json", "-p",
                "[{\"op\":\"replace\",\"path\":\"/data/a\",\"value\":\"10\"},{\"op\":\"add\",\"path\":\"/data/c\",\"value\":\"3\"}]");
        assertEquals("configmap/p patched", json.stdout().trim(), json::toString);
        assertEquals(Map.of("a", "10", "b", "2", "c", "3"), data(getJson(ns, "configmap", "p")));

        // RFC 7386: null removes, a new key is added, the rest is kept
        kubectl.ok("-n", ns, "patch", "configmap", "p", "--type=merge", "-p", "{\"data\":{\"b\":null,\"d\":\"4\"}}");
        assertEquals(Map.of("a", "10", "c", "3", "d", "4"), data(getJson(ns, "configmap", "p")));

        // strategic merge: maps merge (data and labels)
        kubectl.ok("-n", ns, "patch", "configmap", "p", "--type=strategic", "-p",
                "{\"data\":{\"e\":\"5\"},\"metadata\":{\"labels\":{\"x\":\"y\"}}}");
        JsonNode cm = getJson(ns, "configmap", "p");
        assertEquals(Map.of("a", "10", "c", "3", "d", "4", "e", "5"), data(cm));
        assertEquals("y", cm.path("metadata").path("labels").path("x").asText(), cm::toString);
        String rv = cm.path("metadata").path("resourceVersion").asText();

        // the same strategic patch again changes nothing, and kubectl says so
        Result again = kubectl.ok("-n", ns, "patch", "configmap", "p", "--type=strategic", "-p",
                "{\"data\":{\"e\":\"5\"},\"metadata\":{\"labels\":{\"x\":\"y\"}}}");
        assertEquals("configmap/p patched (no change)", again.stdout().trim(), again::toString);
        assertEquals(rv, getJson(ns, "configmap", "p").path("metadata").path("resourceVersion").asText());

        // a JSON patch whose test fails is refused (422, as kube-apiserver answers) and changes nothing
        Result failed = kubectl.run("-n", ns, "patch", "configmap", "p", "--type=json", "-p",
                "[{\"op\":\"test\",\"path\":\"/data/a\",\"value\":\"wrong\"},{\"op\":\"remove\",\"path\":\"/data/a\"}]");
        assertNotEquals(0, failed.exitCode(), failed::toString);
        assertTrue(failed.stderr().startsWith("The request is invalid"), failed::toString);
        assertEquals("10", data(getJson(ns, "configmap", "p")).get("a"));
    }

    @Test
    @Order(2)
    void labelAndAnnotate() throws Exception {
        String ns = namespace("am-label");
        kubectl.ok("-n", ns, "create", "configmap", "l");

        assertEquals("configmap/l labeled", kubectl.ok("-n", ns, "label", "configmap", "l", "app=web", "tier=front").stdout().trim());
        assertEquals(Map.of("app", "web", "tier", "front"), labels(getJson(ns, "configmap", "l")));

        Result refused = kubectl.run("-n", ns, "label", "configmap", "l", "app=db");
        assertNotEquals(0, refused.exitCode(), refused::toString);
        assertTrue(refused.stderr().contains("'app' already has a value (web), and --overwrite is false"), refused::toString);
        assertEquals("web", labels(getJson(ns, "configmap", "l")).get("app"));

        kubectl.ok("-n", ns, "label", "configmap", "l", "app=db", "--overwrite");
        assertEquals(Map.of("app", "db", "tier", "front"), labels(getJson(ns, "configmap", "l")));
        assertEquals("configmap/l unlabeled", kubectl.ok("-n", ns, "label", "configmap", "l", "tier-").stdout().trim());
        assertEquals(Map.of("app", "db"), labels(getJson(ns, "configmap", "l")));

        assertEquals("configmap/l annotated", kubectl.ok("-n", ns, "annotate", "configmap", "l", "note=hi").stdout().trim());
        assertEquals("hi", annotations(getJson(ns, "configmap", "l")).get("note"));
        Result notOverwritten = kubectl.run("-n", ns, "annotate", "configmap", "l", "note=ho");
        assertNotEquals(0, notOverwritten.exitCode(), notOverwritten::toString);
        assertTrue(notOverwritten.stderr().contains("--overwrite is false"), notOverwritten::toString);
        assertEquals("hi", annotations(getJson(ns, "configmap", "l")).get("note"));
        kubectl.ok("-n", ns, "annotate", "configmap", "l", "note=ho", "other=x", "--overwrite");
        assertEquals(Map.of("note", "ho", "other", "x"), annotations(getJson(ns, "configmap", "l")));
        kubectl.ok("-n", ns, "annotate", "configmap", "l", "note-");
        assertEquals(Map.of("other", "x"), annotations(getJson(ns, "configmap", "l")));

        // the last label and annotation removed: no empty maps left behind (kube's omitempty)
        kubectl.ok("-n", ns, "label", "configmap", "l", "app-");
        kubectl.ok("-n", ns, "annotate", "configmap", "l", "other-");
        JsonNode meta = getJson(ns, "configmap", "l").path("metadata");
        assertFalse(meta.has("labels"), meta::toString);
        assertFalse(meta.has("annotations"), meta::toString);
    }

    @Test
    @Order(3)
    void editWithEditorScript() throws Exception {
        String ns = namespace("am-edit");
        kubectl.ok("-n", ns, "create", "configmap", "e", "--from-literal=greeting=hello", "--from-literal=other=kept");
        Path editor = work.resolve("editor.sh");
        Files.writeString(editor, "#!/bin/sh\nsed -i 's/^  greeting: hello$/  greeting: edited/' \"$1\"\n", StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(editor, PosixFilePermissions.fromString("rwxr-xr-x"));
        Kubectl editing = kubectl.withEnvironment(Map.of("EDITOR", editor.toString(), "KUBE_EDITOR", editor.toString()));

        Result edited = editing.ok("-n", ns, "edit", "configmap", "e");
        assertEquals("configmap/e edited", edited.stdout().trim(), edited::toString);
        assertEquals(Map.of("greeting", "edited", "other", "kept"), data(getJson(ns, "configmap", "e")));

        // the script finds nothing to change the second time: kubectl edits nothing
        Result unchanged = editing.ok("-n", ns, "edit", "configmap", "e");
        assertTrue((unchanged.stdout() + unchanged.stderr()).contains("Edit cancelled, no changes made."), unchanged::toString);
    }

    @Test
    @Order(4)
    void diffShowsTheChangeAndExitsOneThenZeroWhenEqual() throws Exception {
        String ns = namespace("am-diff");
        Path manifest = manifest("diff.yaml", configMap("d", ns, "key: one"));
        // an object that does not exist yet: all of it is new, and the dry run creates nothing
        Result created = kubectl.run("diff", "-f", manifest.toString());
        assertEquals(1, created.exitCode(), created::toString);
        assertTrue(created.stdout().lines().anyMatch(l -> l.equals("+  key: one")), created::toString);
        assertTrue(created.stdout().lines().noneMatch(l -> l.startsWith("-  ")), created::toString);
        assertNotFound(ns, "configmap", "d");

        kubectl.ok("apply", "-f", manifest.toString());

        Result same = kubectl.run("diff", "-f", manifest.toString());
        assertEquals(0, same.exitCode(), same::toString);
        assertEquals("", same.stdout(), same::toString);

        Files.writeString(manifest, configMap("d", ns, "key: two"), StandardCharsets.UTF_8);
        Result changed = kubectl.run("diff", "-f", manifest.toString());
        assertEquals(1, changed.exitCode(), changed::toString);
        assertTrue(changed.stdout().lines().anyMatch(l -> l.equals("-  key: one")), changed::toString);
        assertTrue(changed.stdout().lines().anyMatch(l -> l.equals("+  key: two")), changed::toString);
        // diff asks the server with a dry-run patch: nothing changed
        assertEquals("one", data(getJson(ns, "configmap", "d")).get("key"));

        kubectl.ok("apply", "-f", manifest.toString());
        Result equal = kubectl.run("diff", "-f", manifest.toString());
        assertEquals(0, equal.exitCode(), equal::toString);
        assertEquals("", equal.stdout(), equal::toString);
    }

    @Test
    @Order(5)
    void chunkedGetListsEveryConfigMap() throws Exception {
        String ns = namespace("am-chunk");
        for (int i = 1; i <= 5; i++) {
            kubectl.ok("-n", ns, "create", "configmap", "c" + i, "--from-literal=i=" + i);
        }
        Result listed = kubectl.ok("-n", ns, "get", "configmaps", "--chunk-size=1", "-o", "json", "-v=6");
        assertEquals(List.of("c1", "c2", "c3", "c4", "c5", ROOT_CA), names(JSON.readTree(listed.stdout())));
        // one request per item: the first with limit=1 alone, five more with the continue token
        List<String> requests = listed.stderr().lines()
                .filter(l -> l.contains("GET https://") && l.contains("/namespaces/" + ns + "/configmaps?")).toList();
        assertEquals(6, requests.size(), listed::toString);
        assertEquals(6, requests.stream().filter(l -> l.contains("limit=1")).count(), listed::toString);
        assertEquals(5, requests.stream().filter(l -> l.contains("continue=")).count(), listed::toString);

        Result table = kubectl.ok("-n", ns, "get", "configmaps", "--chunk-size=2");
        List<String> lines = table.stdout().lines().toList();
        assertTrue(lines.get(0).startsWith("NAME"), table::toString);
        // one header, then every configmap once
        assertEquals(List.of("c1", "c2", "c3", "c4", "c5", ROOT_CA), lines.subList(1, lines.size()).stream()
                .map(l -> l.split("\\s+")[0]).toList(), table::toString);
    }

    @Test
    @Order(6)
    void labelSelectors() throws Exception {
        String ns = namespace("am-select");
        createLabelled(ns, "s1", "app=web", "tier=front");
        createLabelled(ns, "s2", "app=db", "tier=back");
        createLabelled(ns, "s3", "app=cache");
        createLabelled(ns, "s4", "env=prod");

        assertEquals(List.of("s1"), selected(ns, "app=web"));
        assertEquals(List.of("s1"), selected(ns, "app==web"));
        assertEquals(List.of(ROOT_CA, "s2", "s3", "s4"), selected(ns, "app!=web"));
        assertEquals(List.of("s1", "s2"), selected(ns, "app in (web,db)"));
        assertEquals(List.of(ROOT_CA, "s3", "s4"), selected(ns, "app notin (web,db)"));
        assertEquals(List.of("s1", "s2"), selected(ns, "tier"));
        assertEquals(List.of(ROOT_CA, "s4"), selected(ns, "!app"));
        assertEquals(List.of("s2"), selected(ns, "app in (web,db),tier=back"));
        assertEquals(List.of(), selected(ns, "app=none"));

        Result invalid = kubectl.run("-n", ns, "get", "configmaps", "-l", "app in (web");
        assertNotEquals(0, invalid.exitCode(), invalid::toString);
        assertTrue(invalid.stderr().contains("Error from server (BadRequest)"), invalid::toString);
    }

    @Test
    @Order(7)
    void fieldSelectors() throws Exception {
        String ns = namespace("am-fields");
        kubectl.ok("-n", ns, "create", "configmap", "x");
        kubectl.ok("-n", ns, "create", "configmap", "y");
        assertEquals(List.of("x"), names(getJson(ns, "configmaps", null, "--field-selector", "metadata.name=x")));
        assertEquals(List.of(ROOT_CA, "y"), names(getJson(ns, "configmaps", null, "--field-selector", "metadata.name!=x")));
        assertEquals(List.of(ROOT_CA, "x", "y"), names(getJson(ns, "configmaps", null, "--field-selector",
                "metadata.namespace=" + ns)));

        kubectl.ok("-n", ns, "create", "secret", "generic", "opaque", "--from-literal=k=v");
        kubectl.ok("-n", ns, "create", "secret", "docker-registry", "registry",
                "--docker-server=registry.example", "--docker-username=u", "--docker-password=p");
        assertEquals(List.of("opaque"), names(getJson(ns, "secrets", null, "--field-selector", "type=Opaque")));
        assertEquals(List.of("registry"),
                names(getJson(ns, "secrets", null, "--field-selector", "type=kubernetes.io/dockerconfigjson")));
        assertEquals(List.of("registry"), names(getJson(ns, "secrets", null, "--field-selector", "type!=Opaque")));

        Result unsupported = kubectl.run("-n", ns, "get", "configmaps", "--field-selector", "data.k=v");
        assertNotEquals(0, unsupported.exitCode(), unsupported::toString);
        assertTrue(unsupported.stderr().contains("Error from server (BadRequest)"), unsupported::toString);
        assertTrue(unsupported.stderr().contains("field label not supported: data.k"), unsupported::toString);
    }

    @Test
    @Order(8)
    void fieldSelectorsOnEventsAndNamespaces() throws Exception {
        String ns = namespace("am-events");
        kubectl.ok("create", "-f", manifest("events.yaml", event("e1", ns, "target", "Testing", "Warning")
                + "---\n" + event("e2", ns, "target", "Other", "Normal")
                + "---\n" + event("e3", ns, "bystander", "Testing", "Warning")).toString());

        assertEquals(List.of("e1", "e2"), names(getJson(ns, "events", null, "--field-selector", "involvedObject.name=target")));
        assertEquals(List.of("e1"), names(getJson(ns, "events", null, "--field-selector",
                "involvedObject.kind=ConfigMap,involvedObject.name=target,type=Warning")));
        assertEquals(List.of("e1", "e3"), names(getJson(ns, "events", null, "--field-selector", "reason=Testing")));
        assertEquals(List.of("e2"), names(getJson(ns, "events", null, "--field-selector", "source=e2e-other")));

        // kubectl events --for selects by involvedObject.kind, apiVersion and name
        Result forTarget = kubectl.ok("-n", ns, "events", "--for", "configmap/target");
        List<String> lines = forTarget.stdout().lines().toList();
        assertTrue(lines.get(0).matches("LAST SEEN\\s+TYPE\\s+REASON\\s+OBJECT\\s+MESSAGE"), forTarget::toString);
        assertEquals(2, lines.size() - 1, forTarget::toString);
        assertTrue(lines.stream().skip(1).allMatch(l -> l.contains("ConfigMap/target")), forTarget::toString);

        List<String> active = names(getJson(ns, "namespaces", null, "--field-selector", "status.phase=Active"));
        assertTrue(active.containsAll(List.of("default", "kube-system", ns)), active::toString);
        assertEquals(List.of(), names(getJson(ns, "namespaces", null, "--field-selector", "status.phase=Terminating")));
    }

    @Test
    @Order(9)
    void deleteWithCascadeOrphanKeepsTheDependentsAndTheDefaultDeletesThem() throws Exception {
        String ns = namespace("am-orphan");
        kubectl.ok("-n", ns, "create", "configmap", "o");
        createDependent(ns, "kept", getJson(ns, "configmap", "o"), false, null);

        // kubectl waits until the garbage collector has released the orphan finalizer and the owner is gone
        Result deleted = kubectl.ok("-n", ns, "delete", "configmap", "o", "--cascade=orphan", "--timeout=30s");
        assertEquals("configmap \"o\" deleted", deleted.stdout().trim(), deleted::toString);
        assertNotFound(ns, "configmap", "o");
        JsonNode kept = getJson(ns, "configmap", "kept").path("metadata");
        assertTrue(kept.path("ownerReferences").isMissingNode(), kept::toString);

        // Background, kubectl's default: the owner goes at once and the collector deletes the dependent.
        kubectl.ok("-n", ns, "create", "configmap", "b");
        createDependent(ns, "collected", getJson(ns, "configmap", "b"), false, null);
        kubectl.ok("-n", ns, "delete", "configmap", "b");
        await("the garbage collector deletes configmap collected",
                () -> kubectl.run("-n", ns, "get", "configmap", "collected"), r -> r.stderr().contains("(NotFound)"));
        getJson(ns, "configmap", "kept");
    }

    @Test
    @Order(10)
    void deleteWithCascadeForegroundWaitsForTheBlockingDependents() throws Exception {
        String ns = namespace("am-foreground");
        kubectl.ok("-n", ns, "create", "configmap", "f");
        // The dependent is held by a finalizer of its own, so the owner's wait can be watched.
        createDependent(ns, "blocking", getJson(ns, "configmap", "f"), true, "example.com/hold");
        kubectl.ok("-n", ns, "delete", "configmap", "f", "--cascade=foreground", "--wait=false");

        JsonNode meta = getJson(ns, "configmap", "f").path("metadata");
        assertFalse(meta.path("deletionTimestamp").asText().isEmpty(), meta::toString);
        assertEquals(List.of("foregroundDeletion"), strings(meta.path("finalizers")), meta::toString);
        await("the garbage collector deletes the blocking dependent", () -> getJson(ns, "configmap", "blocking"),
                d -> !d.path("metadata").path("deletionTimestamp").asText().isEmpty());

        // kubectl wait watches the object (a watch with fieldSelector=metadata.name=f) until it is gone
        Path output = work.resolve("wait-delete.out");
        Process wait = kubectl.background(output, "-n", ns, "wait", "--for=delete", "configmap/f", "--timeout=30s", "-v=6");
        try {
            await("kubectl wait watching configmap f", () -> {
                String s = readQuietly(output);
                if (!wait.isAlive()) {
                    throw new AssertionError("kubectl wait ended while the dependent is there:\n" + s);
                }
                return s;
            }, s -> s.lines().anyMatch(l -> l.contains("fieldSelector=metadata.name%3Df&") && l.contains("watch=true")
                    && l.contains(" 200 OK")));
            assertEquals(List.of("foregroundDeletion"),
                    strings(getJson(ns, "configmap", "f").path("metadata").path("finalizers")));
            removeFinalizers(ns, "blocking");
            assertTrue(wait.waitFor(POLL_TIMEOUT.toSeconds(), TimeUnit.SECONDS),
                    () -> "kubectl wait --for=delete did not end:\n" + readQuietly(output));
            assertEquals(0, wait.exitValue(), () -> readQuietly(output));
            assertTrue(readQuietly(output).lines().anyMatch(l -> l.equals("configmap/f condition met")), () -> readQuietly(output));
        } finally {
            stop(wait);
        }
        assertNotFound(ns, "configmap", "f");
        assertNotFound(ns, "configmap", "blocking");
    }

    @Test
    @Order(11)
    void serverDryRunStoresAndDeletesNothing() throws Exception {
        String ns = namespace("am-dryrun");

        // create
        Result created = kubectl.ok("-n", ns, "create", "configmap", "dry", "--from-literal=a=1", "--dry-run=server");
        assertEquals("configmap/dry created (server dry run)", created.stdout().trim(), created::toString);
        assertNotFound(ns, "configmap", "dry");

        // apply: not created, then (once it exists) not configured
        Path manifest = manifest("dryrun.yaml", configMap("applied", ns, "key: one"));
        Result applyNew = kubectl.ok("apply", "-f", manifest.toString(), "--dry-run=server");
        assertEquals("configmap/applied created (server dry run)", applyNew.stdout().trim(), applyNew::toString);
        assertNotFound(ns, "configmap", "applied");
        kubectl.ok("apply", "-f", manifest.toString());
        JsonNode stored = getJson(ns, "configmap", "applied");
        Files.writeString(manifest, configMap("applied", ns, "key: two"), StandardCharsets.UTF_8);
        Result applyChanged = kubectl.ok("apply", "-f", manifest.toString(), "--dry-run=server", "-o", "json");
        assertEquals("two", data(JSON.readTree(applyChanged.stdout())).get("key"), applyChanged::toString);
        assertEquals(stored, getJson(ns, "configmap", "applied"));

        // patch and label: the patched object comes back, the stored one is unchanged
        Result patched = kubectl.ok("-n", ns, "patch", "configmap", "applied", "--type=merge", "-p",
                "{\"data\":{\"key\":\"patched\"}}", "--dry-run=server", "-o", "json");
        assertEquals("patched", data(JSON.readTree(patched.stdout())).get("key"), patched::toString);
        Result labelled = kubectl.ok("-n", ns, "label", "configmap", "applied", "dry=run", "--dry-run=server");
        assertEquals("configmap/applied labeled (server dry run)", labelled.stdout().trim(), labelled::toString);
        assertEquals(stored, getJson(ns, "configmap", "applied"));

        // delete
        Result deleted = kubectl.ok("-n", ns, "delete", "configmap", "applied", "--dry-run=server");
        assertEquals("configmap \"applied\" deleted (server dry run)", deleted.stdout().trim(), deleted::toString);
        JsonNode after = getJson(ns, "configmap", "applied");
        assertEquals(stored, after);
        assertTrue(after.path("metadata").path("deletionTimestamp").isMissingNode(), after::toString);
    }

    @Test
    @Order(12)
    void watchWithSelectorSeesAnObjectLeaveAndReturn() throws Exception {
        String ns = namespace("am-watch");
        createLabelled(ns, "w", "app=x");
        Path output = work.resolve("watch-selector.out");
        Process watch = kubectl.background(output, "-n", ns, "get", "configmaps", "-w", "-l", "app=x",
                "--output-watch-events", "-o", "json");
        try {
            // the initial list arrives as ADDED: from then on every change is seen
            awaitEvents(output, watch, "ADDED w", events -> events.size() >= 1);

            kubectl.ok("-n", ns, "label", "configmap", "w", "app=y", "--overwrite");
            List<JsonNode> left = awaitEvents(output, watch, "DELETED w", events -> events.size() >= 2);
            kubectl.ok("-n", ns, "label", "configmap", "w", "app=x", "--overwrite");
            List<JsonNode> back = awaitEvents(output, watch, "ADDED w again", events -> events.size() >= 3);

            assertEquals(List.of("ADDED", "DELETED", "ADDED"), back.stream().map(e -> e.path("type").asText()).toList(),
                    back::toString);
            assertTrue(back.stream().allMatch(e -> e.path("object").path("metadata").path("name").asText().equals("w")),
                    back::toString);
            assertEquals("x", back.get(2).path("object").path("metadata").path("labels").path("app").asText(), back::toString);
            // DELETED carries the last state that matched, at the version of the change that unmatched it
            JsonNode gone = left.get(1).path("object").path("metadata");
            assertEquals("x", gone.path("labels").path("app").asText(), left::toString);
            assertTrue(Long.parseLong(gone.path("resourceVersion").asText())
                    > Long.parseLong(left.get(0).path("object").path("metadata").path("resourceVersion").asText()), left::toString);
        } finally {
            stop(watch);
        }
    }

    @Test
    @Order(13)
    void watchSeesAFinalizedDeletion() throws Exception {
        String ns = namespace("am-finalizer");
        Path manifest = manifest("finalized.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fin\n  namespace: " + ns
                + "\n  labels:\n    app: fin\n  finalizers:\n  - kubelix.io/test\ndata:\n  k: v\n");
        kubectl.ok("create", "-f", manifest.toString());
        Path output = work.resolve("watch-finalizer.out");
        Process watch = kubectl.background(output, "-n", ns, "get", "configmaps", "-w", "-l", "app=fin",
                "--output-watch-events", "-o", "json");
        try {
            awaitEvents(output, watch, "ADDED fin", events -> events.size() >= 1);

            kubectl.ok("-n", ns, "delete", "configmap", "fin", "--wait=false");
            List<JsonNode> modified = awaitEvents(output, watch, "MODIFIED fin with deletionTimestamp",
                    events -> events.size() >= 2);
            JsonNode meta = modified.get(1).path("object").path("metadata");
            assertEquals("MODIFIED", modified.get(1).path("type").asText(), modified::toString);
            assertFalse(meta.path("deletionTimestamp").asText().isEmpty(), modified::toString);
            assertEquals(List.of("kubelix.io/test"), strings(meta.path("finalizers")), modified::toString);

            removeFinalizers(ns, "fin");
            List<JsonNode> events = awaitEvents(output, watch, "DELETED fin",
                    e -> e.stream().anyMatch(ev -> ev.path("type").asText().equals("DELETED")));
            // removing the last finalizer deletes: no MODIFIED without finalizers in between, as in kube-apiserver
            assertEquals(List.of("ADDED", "MODIFIED", "DELETED"),
                    events.stream().map(e -> e.path("type").asText()).toList(), events::toString);
            assertNotFound(ns, "configmap", "fin");
        } finally {
            stop(watch);
        }
    }

    @Test
    @Order(14)
    void malformedYamlIsRefusedAndNothingIsStored() throws Exception {
        String ns = namespace("am-bad");
        kubectl.ok("-n", ns, "create", "configmap", "existing");
        JsonNode before = getJson(ns, "configmaps", null);

        Path bad = manifest("malformed.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bad\n  namespace: " + ns
                + "\n data:\n  - : [\n");
        Result refused = kubectl.run("create", "-f", bad.toString());
        assertNotEquals(0, refused.exitCode(), refused::toString);
        assertTrue(refused.stderr().contains("error parsing " + bad), refused::toString);

        // the server's own parser, through kubectl create --raw: 400 BadRequest
        Result raw = kubectl.run("create", "--raw", "/api/v1/namespaces/" + ns + "/configmaps", "-f",
                manifest("truncated.json", "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"bad\"").toString());
        assertNotEquals(0, raw.exitCode(), raw::toString);
        assertTrue(raw.stderr().contains("Error from server (BadRequest)"), raw::toString);

        assertEquals(names(before), names(getJson(ns, "configmaps", null)));
        assertEquals(before.path("items").get(0).path("metadata").path("resourceVersion"),
                getJson(ns, "configmaps", null).path("items").get(0).path("metadata").path("resourceVersion"));
    }

    @Test
    @Order(15)
    void duplicateFieldsWithStrictValidation() throws Exception {
        String ns = namespace("am-dup");
        String body = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"dup\",\"namespace\":\"" + ns
                + "\"},\"data\":{\"a\":\"1\",\"a\":\"2\"}}";
        Path manifest = manifest("duplicate.json", body);

        // kubectl create -f decodes the manifest itself (the last duplicate wins) and sends a clean body
        Result clientSide = kubectl.ok("create", "-f", manifest.toString(), "--validate=strict");
        assertEquals("configmap/dup created", clientSide.stdout().trim(), clientSide::toString);
        assertEquals(Map.of("a", "2"), data(getJson(ns, "configmap", "dup")));
        kubectl.ok("-n", ns, "delete", "configmap", "dup");

        // the bytes as written, through kubectl create --raw: the server's strict decoding error
        String path = "/api/v1/namespaces/" + ns + "/configmaps";
        Result strict = kubectl.run("create", "--raw", path + "?fieldValidation=Strict", "-f", manifest.toString());
        assertNotEquals(0, strict.exitCode(), strict::toString);
        assertTrue(strict.stderr().contains("Error from server (BadRequest)"), strict::toString);
        assertTrue(strict.stderr().contains("strict decoding error: duplicate field \"data.a\""), strict::toString);
        assertNotFound(ns, "configmap", "dup");

        Result warned = kubectl.ok("create", "--raw", path + "?fieldValidation=Warn", "-f", manifest.toString());
        assertTrue(warned.stderr().contains("Warning: duplicate field \"data.a\""), warned::toString);
        assertEquals("2", data(JSON.readTree(warned.stdout())).get("a"), warned::toString);
    }

    @Test
    @Order(16)
    void serverSideApplyAndItsDiff() throws Exception {
        String ns = namespace("am-ssa");
        Path manifest = manifest("ssa.yaml", configMap("ssa", ns, "key: one"));
        Result applied = kubectl.ok("apply", "--server-side", "-f", manifest.toString());
        assertEquals("configmap/ssa serverside-applied", applied.stdout().trim(), applied::toString);
        assertEquals("one", data(getJson(ns, "configmap", "ssa")).get("key"));

        // kubectl diff --server-side is a dry-run server-side apply: 0 when equal, 1 with the change
        Result same = kubectl.run("diff", "--server-side", "-f", manifest.toString());
        assertEquals(0, same.exitCode(), same::toString);
        Path changed = manifest("ssa-changed.yaml", configMap("ssa", ns, "key: two"));
        Result diff = kubectl.run("diff", "--server-side", "-f", changed.toString());
        assertEquals(1, diff.exitCode(), diff::toString);
        assertTrue(diff.stdout().contains("-  key: one") && diff.stdout().contains("+  key: two"), diff::toString);
        assertEquals("one", data(getJson(ns, "configmap", "ssa")).get("key"), "diff changes nothing");
    }

    /**
     * Deleting a namespace, as kube-apiserver and its namespace controller do it: the namespace
     * becomes Terminating, refuses new content (403), its objects are deleted, and it goes once the
     * last object (held by a finalizer here) is gone.
     */
    @Test
    @Order(17)
    void deletingANamespaceDeletesItsContentThenTheNamespace() throws Exception {
        String ns = namespace("am-ns-delete");
        kubectl.ok("-n", ns, "create", "configmap", "plain", "--from-literal=a=b");
        kubectl.ok("-n", ns, "create", "secret", "generic", "s", "--from-literal=k=v");
        kubectl.ok("-n", ns, "create", "configmap", "held");
        kubectl.ok("-n", ns, "patch", "configmap", "held", "--type=merge", "-p",
                "{\"metadata\":{\"finalizers\":[\"example.com/hold\"]}}");
        JsonNode created = JSON.readTree(kubectl.ok("get", "namespace", ns, "-o", "json").stdout());
        assertEquals(List.of("kubernetes"), strings(created.path("spec").path("finalizers")), created::toString);

        Result deleted = kubectl.ok("delete", "namespace", ns, "--wait=false");
        assertEquals("namespace \"" + ns + "\" deleted", deleted.stdout().trim(), deleted::toString);
        JsonNode terminating = JSON.readTree(kubectl.ok("get", "namespace", ns, "-o", "json").stdout());
        assertEquals("Terminating", terminating.path("status").path("phase").asText(), terminating::toString);
        assertFalse(terminating.path("metadata").path("deletionTimestamp").asText().isEmpty(), terminating::toString);

        Result again = kubectl.run("delete", "namespace", ns, "--wait=false");
        assertNotEquals(0, again.exitCode(), again::toString);
        assertTrue(again.stderr().contains("Error from server (Conflict): Operation cannot be fulfilled on namespaces \""
                + ns + "\": The system is ensuring all content is removed from this namespace."), again::toString);

        Result refused = kubectl.run("-n", ns, "create", "configmap", "late");
        assertNotEquals(0, refused.exitCode(), refused::toString);
        assertTrue(refused.stderr().contains("configmaps \"late\" is forbidden: unable to create new content in namespace "
                + ns + " because it is being terminated"), refused::toString);

        await("the namespace's objects deleted but the held one", () -> kubectl.run("-n", ns, "get",
                "configmaps,secrets", "-o", "name"), r -> r.exitCode() == 0 && r.stdout().trim().equals("configmap/held"));
        assertEquals(0, kubectl.run("get", "namespace", ns).exitCode(), "the held configmap keeps the namespace");

        removeFinalizers(ns, "held");
        Result gone = kubectl.run("wait", "--for=delete", "namespace/" + ns, "--timeout=30s");
        assertEquals(0, gone.exitCode(), gone::toString);
        Result after = kubectl.run("get", "namespace", ns);
        assertTrue(after.exitCode() != 0 && after.stderr().contains("Error from server (NotFound)"), after::toString);
    }

    /** Creates namespace {@code name} and returns it. */
    @Test
    @Order(18)
    void explainDescribesKindsAndFields() throws Exception {
        String configMap = kubectl.ok("explain", "configmap").stdout();
        assertTrue(Pattern.compile("KIND:\\s+ConfigMap\\s+VERSION:\\s+v1").matcher(configMap).find(), configMap);
        assertTrue(configMap.contains("ConfigMap holds configuration data for pods to consume."), configMap);
        for (String field : List.of("apiVersion\t<string>", "binaryData\t<map[string]string>", "data\t<map[string]string>",
                "immutable\t<boolean>", "kind\t<string>", "metadata\t<ObjectMeta>")) {
            assertTrue(configMap.contains(field), field + " in\n" + configMap);
        }

        String data = kubectl.ok("explain", "configmap.data").stdout();
        assertTrue(data.contains("FIELD: data <map[string]string>"), data);
        assertTrue(data.contains("Data contains the configuration data."), data);

        String finalizers = kubectl.ok("explain", "namespace.spec.finalizers").stdout();
        assertTrue(Pattern.compile("KIND:\\s+Namespace").matcher(finalizers).find(), finalizers);
        assertTrue(finalizers.contains("FIELD: finalizers <[]string>"), finalizers);

        String secret = kubectl.ok("explain", "secret", "--recursive").stdout();
        assertTrue(secret.contains("Secret holds secret data of a certain type."), secret);
        // the tree of ObjectMeta, with OwnerReference's required fields marked
        assertTrue(Pattern.compile("ownerReferences\\t<\\[\\]OwnerReference>\\n\\s+apiVersion\\t<string> -required-")
                .matcher(secret).find(), secret);
        assertTrue(secret.contains("managedFields\t<[]ManagedFieldsEntry>"), secret);

        String event = kubectl.ok("explain", "event.involvedObject").stdout();
        assertTrue(event.contains("FIELD: involvedObject <ObjectReference>"), event);
        Result unknown = kubectl.run("explain", "configmap.nosuchfield");
        assertNotEquals(0, unknown.exitCode(), unknown::toString);
        assertTrue(unknown.stderr().contains("field \"nosuchfield\" does not exist"), unknown::toString);
    }

    @Test
    @Order(19)
    void applyRefusesAMisspelledFieldUnlessValidationIsOff() throws Exception {
        String ns = namespace("am-schema");
        Path manifest = manifest("typo.yaml", configMap("typo", ns, "a: \"1\"") + "dtaa:\n  b: \"2\"\n");

        Result strict = kubectl.run("apply", "-f", manifest.toString());
        assertNotEquals(0, strict.exitCode(), strict::toString);
        assertTrue(strict.stderr().contains("Error from server (BadRequest): error when creating \"" + manifest
                + "\": ConfigMap in version \"v1\" cannot be handled as a ConfigMap: strict decoding error: unknown field \"dtaa\""),
                strict::toString);
        assertEquals(1, kubectl.run("-n", ns, "get", "configmap", "typo").exitCode(), "nothing was created");

        Result unvalidated = kubectl.ok("apply", "-f", manifest.toString(), "--validate=false");
        assertEquals("configmap/typo created", unvalidated.stdout().trim(), unvalidated::toString);
        assertFalse(unvalidated.stderr().contains("Warning"), unvalidated::toString);
        JsonNode stored = getJson(ns, "configmap", "typo");
        assertFalse(stored.has("dtaa"), stored::toString);
        assertEquals("1", stored.path("data").path("a").asText(), stored::toString);

        // A dry-run create of a name in use is refused as a real one would be (kube's DryRunnableStorage).
        Result taken = kubectl.run("create", "-f", manifest.toString(), "--validate=false", "--dry-run=server");
        assertTrue(taken.stderr().contains("Error from server (AlreadyExists): error when creating \"" + manifest
                + "\": configmaps \"typo\" already exists"), taken::toString);
        Path another = manifest("typo-2.yaml", configMap("typo-2", ns, "a: \"1\"") + "dtaa:\n  b: \"2\"\n");
        Result warned = kubectl.ok("create", "-f", another.toString(), "--validate=warn", "--dry-run=server");
        assertTrue(warned.stderr().contains("Warning: unknown field \"dtaa\""), warned::toString);
        assertEquals(1, kubectl.run("-n", ns, "get", "configmap", "typo-2").exitCode(), "a dry run creates nothing");

        // a patch (kubectl patch sends no fieldValidation: kube's default, Warn): the patched object's unknown field is dropped
        Result patched = kubectl.ok("-n", ns, "patch", "configmap", "typo", "--type=merge", "-p",
                "{\"metadata\":{\"labelz\":{\"x\":\"y\"}},\"data\":{\"b\":\"2\"}}");
        assertTrue(patched.stderr().contains("Warning: unknown field \"metadata.labelz\""), patched::toString);
        JsonNode after = getJson(ns, "configmap", "typo");
        assertFalse(after.path("metadata").has("labelz"), after::toString);
        assertEquals("2", after.path("data").path("b").asText(), after::toString);
    }

    @Test
    @Order(20)
    void aListIsReplacedAndAppliedWithItsSchemaCheckedByKubectl() throws Exception {
        // kubectl checks a List against /openapi/v2, which it reads in gnostic's protobuf form.
        String ns = namespace("am-list");
        kubectl.ok("-n", ns, "create", "secret", "generic", "s", "--from-literal=a=b");
        // kubectl get secrets -o json | kubectl replace -f -
        Path secrets = manifest("secrets.json", kubectl.ok("-n", ns, "get", "secrets", "-o", "json").stdout());
        Result replaced = kubectl.ok("replace", "-f", secrets.toString());
        assertEquals("secret/s replaced", replaced.stdout().trim(), replaced::toString);
        assertEquals("Yg==", getJson(ns, "secret", "s").path("data").path("a").asText());

        String list = "apiVersion: v1\nkind: List\nitems:\n"
                + "- " + configMap("one", ns, "a: \"1\"").replace("\n", "\n  ").stripTrailing() + "\n"
                + "- " + configMap("two", ns, "b: \"2\"").replace("\n", "\n  ").stripTrailing() + "\n";
        Result applied = kubectl.ok("apply", "-f", manifest("list.yaml", list).toString());
        assertEquals("configmap/one created\nconfigmap/two created", applied.stdout().trim(), applied::toString);
        assertEquals(Map.of("a", "1"), data(getJson(ns, "configmap", "one")));
        assertEquals(Map.of("b", "2"), data(getJson(ns, "configmap", "two")));

        // kubectl found the ConfigMap's definition in the protobuf document: it refuses a misspelled field itself
        Path typo = manifest("list-typo.yaml", list.replace("  data:\n    b:", "  dtaa:\n    b:"));
        Result refused = kubectl.run("apply", "-f", typo.toString());
        assertNotEquals(0, refused.exitCode(), refused::toString);
        assertTrue(refused.stderr().contains("ValidationError(ConfigMap): unknown field \"dtaa\" in io.k8s.api.core.v1.ConfigMap"),
                refused::toString);
    }

    /**
     * A new namespace, once the root CA publisher has given it kube-root-ca.crt, as every namespace
     * of a cluster has: lists of configmaps show it, as kube-apiserver's do.
     */
    private String namespace(String name) throws Exception {
        kubectl.ok("create", "namespace", name);
        server.await("kube-root-ca.crt in " + name, POLL_TIMEOUT,
                () -> kubectl.run("-n", name, "get", "configmap", ROOT_CA).exitCode(), code -> code == 0);
        return name;
    }

    private void createLabelled(String ns, String name, String... labels) throws Exception {
        kubectl.ok("-n", ns, "create", "configmap", name);
        List<String> args = new ArrayList<>(List.of("-n", ns, "label", "configmap", name));
        args.addAll(List.of(labels));
        kubectl.ok(args.toArray(String[]::new));
    }

    private List<String> selected(String ns, String selector) throws Exception {
        return names(getJson(ns, "configmaps", null, "-l", selector));
    }

    /** {@code kubectl get <resource> [name] -o json} in {@code ns}, parsed. */
    private JsonNode getJson(String ns, String resource, String name, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("-n", ns, "get", resource));
        if (name != null) {
            args.add(name);
        }
        args.addAll(List.of(more));
        args.addAll(List.of("-o", "json"));
        Result r = kubectl.ok(args.toArray(String[]::new));
        return JSON.readTree(r.stdout());
    }

    /** A configmap owned by {@code owner}, with {@code blockOwnerDeletion} and a finalizer of its own when given. */
    private void createDependent(String ns, String name, JsonNode owner, boolean block, String finalizer) throws Exception {
        JsonNode meta = owner.path("metadata");
        String manifest = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\n"
                + (finalizer == null ? "" : "  finalizers: [\"" + finalizer + "\"]\n")
                + "  ownerReferences:\n  - apiVersion: v1\n    kind: ConfigMap\n    name: " + meta.path("name").asText()
                + "\n    uid: " + meta.path("uid").asText() + "\n" + (block ? "    blockOwnerDeletion: true\n" : "");
        kubectl.ok("-n", ns, "create", "-f", manifest(ns + "-" + name + ".yaml", manifest).toString());
    }

    private void removeFinalizers(String ns, String name) throws Exception {
        Result patched = kubectl.ok("-n", ns, "patch", "configmap", name, "--type=json", "-p",
                "[{\"op\":\"remove\",\"path\":\"/metadata/finalizers\"}]");
        assertEquals("configmap/" + name + " patched", patched.stdout().trim(), patched::toString);
    }

    private void assertNotFound(String ns, String resource, String name) throws Exception {
        Result r = kubectl.run("-n", ns, "get", resource, name, "-o", "json");
        assertNotEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stderr().contains("Error from server (NotFound)"), r::toString);
    }

    private Path manifest(String file, String content) throws IOException {
        Path path = work.resolve(file);
        Files.writeString(path, content, StandardCharsets.UTF_8);
        return path;
    }

    private static String configMap(String name, String ns, String dataLine) {
        return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\n  namespace: " + ns + "\ndata:\n  " + dataLine + "\n";
    }

    private static String event(String name, String ns, String involved, String reason, String type) {
        String source = reason.equals("Testing") ? "e2e" : "e2e-other";
        return "apiVersion: v1\nkind: Event\nmetadata:\n  name: " + name + "\n  namespace: " + ns + "\n"
                + "involvedObject:\n  apiVersion: v1\n  kind: ConfigMap\n  name: " + involved + "\n  namespace: " + ns + "\n"
                + "reason: " + reason + "\nmessage: about " + involved + "\ntype: " + type + "\n"
                + "source:\n  component: " + source + "\ncount: 1\n"
                + "firstTimestamp: \"2026-01-01T00:00:00Z\"\nlastTimestamp: \"2026-01-01T00:00:00Z\"\n";
    }

    private static Map<String, String> data(JsonNode object) {
        return stringMap(object.path("data"));
    }

    private static Map<String, String> labels(JsonNode object) {
        return stringMap(object.path("metadata").path("labels"));
    }

    private static Map<String, String> annotations(JsonNode object) {
        return stringMap(object.path("metadata").path("annotations"));
    }

    private static Map<String, String> stringMap(JsonNode node) {
        Map<String, String> map = new java.util.TreeMap<>();
        node.fields().forEachRemaining(e -> map.put(e.getKey(), e.getValue().asText()));
        return map;
    }

    private static List<String> strings(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(v -> values.add(v.asText()));
        return values;
    }

    /** The names of a List's items, in the order listed. */
    private static List<String> names(JsonNode list) {
        List<String> names = new ArrayList<>();
        list.path("items").forEach(i -> names.add(i.path("metadata").path("name").asText()));
        return names;
    }

    /**
     * Waits until the watch events printed so far (kubectl {@code --output-watch-events -o json}:
     * one {@code {"type":..,"object":..}} document after another) satisfy {@code done}.
     */
    private List<JsonNode> awaitEvents(Path output, Process watch, String what, Predicate<List<JsonNode>> done) throws Exception {
        return await(what, () -> {
            String s = readQuietly(output);
            if (!watch.isAlive()) {
                throw new AssertionError("kubectl watch exited with " + watch.exitValue() + " before " + what + ":\n" + s);
            }
            return events(s);
        }, done);
    }

    /** The complete JSON documents in {@code s}; a document still being written is left for the next poll. */
    private static List<JsonNode> events(String s) {
        List<JsonNode> events = new ArrayList<>();
        try (MappingIterator<JsonNode> it = JSON.readerFor(JsonNode.class).readValues(s)) {
            while (it.hasNextValue()) {
                events.add(it.nextValue());
            }
        } catch (IOException | RuntimeException incomplete) {
            // the last document is not complete yet
        }
        return events;
    }

    private static String readQuietly(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            return e.toString();
        }
    }

    private static void stop(Process watch) throws InterruptedException {
        watch.destroy();
        if (!watch.waitFor(10, TimeUnit.SECONDS)) {
            watch.destroyForcibly();
        }
    }
}
