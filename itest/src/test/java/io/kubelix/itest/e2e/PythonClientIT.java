package io.kubelix.itest.e2e;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The official Python {@code kubernetes} client (Debian's {@code python3-kubernetes}, with the
 * interpreter {@code kubelix.itest.python}, else {@code /usr/bin/python3}) against the server, as
 * a script of a Python user or a kopf operator runs it. A watch gets each event as it is made,
 * before any other event is written: its script prints each event, and the test waits for that
 * line and writes nothing else meanwhile.
 */
class PythonClientIT extends KubectlSuite {
    private static final long WAIT_SECONDS = 60;
    private final List<Process> scripts = new ArrayList<>();

    PythonClientIT() {
        super("python", "configmaps");
    }

    @AfterEach
    void stopScripts() {
        scripts.forEach(Process::destroyForcibly);
        scripts.clear();
    }

    @Test
    void aWatchGetsEachEventBeforeTheNextIsWritten() throws Exception {
        kubectl.ok("create", "namespace", "py-watch");
        // The namespace's kube-root-ca.crt is published first, so that the watch sees only the test's events.
        server.await("kube-root-ca.crt in py-watch", POLL_TIMEOUT,
                () -> kubectl.run("-n", "py-watch", "get", "configmap", "kube-root-ca.crt").exitCode(), code -> code == 0);
        BlockingQueue<String> lines = run("""
                import sys
                from kubernetes import client, config, watch
                config.load_kube_config(sys.argv[1])
                v1 = client.CoreV1Api()
                rv = v1.list_namespaced_config_map("py-watch").metadata.resource_version
                print("listed", flush=True)
                for ev in watch.Watch().stream(v1.list_namespaced_config_map, "py-watch", resource_version=rv,
                                               timeout_seconds=300):
                    print(ev["type"], ev["object"].metadata.name, ev["object"].data, flush=True)
                """);
        assertEquals("listed", lines.poll(WAIT_SECONDS, TimeUnit.SECONDS));

        kubectl.ok("create", "configmap", "first", "-n", "py-watch", "--from-literal=k=1");
        assertEquals("ADDED first {'k': '1'}", lines.poll(WAIT_SECONDS, TimeUnit.SECONDS),
                "the event reaches the script while no other event follows it");

        kubectl.ok("patch", "configmap", "first", "-n", "py-watch", "--type=merge", "-p", "{\"data\":{\"k\":\"2\"}}");
        assertEquals("MODIFIED first {'k': '2'}", lines.poll(WAIT_SECONDS, TimeUnit.SECONDS));
    }

    /** Typed deletes answer with the deleted object where kube's registry does, a Status elsewhere. */
    @Test
    void deletesAnswerWithTheObjectWhereKubeDoes() throws Exception {
        kubectl.ok("create", "namespace", "py-delete");
        BlockingQueue<String> lines = run("""
                import sys
                from kubernetes import client, config
                config.load_kube_config(sys.argv[1])
                v1 = client.CoreV1Api()
                ns = "py-delete"
                v1.create_namespaced_service_account(ns, {"metadata": {"name": "robot"}})
                v1.create_namespaced_service(ns, {"metadata": {"name": "web"}, "spec": {"ports": [{"port": 80}]}})
                v1.create_namespaced_config_map(ns, {"metadata": {"name": "settings"}})
                for resource, name in (("serviceaccounts", "robot"), ("services", "web"), ("configmaps", "settings")):
                    answer = v1.api_client.call_api("/api/v1/namespaces/" + ns + "/" + resource + "/" + name, "DELETE",
                                                    response_type="object", auth_settings=["BearerToken"],
                                                    _return_http_data_only=True)
                    print(answer["kind"], answer["metadata"].get("name") or answer["details"]["name"], flush=True)
                """);
        assertEquals("ServiceAccount robot", lines.poll(WAIT_SECONDS, TimeUnit.SECONDS));
        assertEquals("Service web", lines.poll(WAIT_SECONDS, TimeUnit.SECONDS));
        assertEquals("Status settings", lines.poll(WAIT_SECONDS, TimeUnit.SECONDS));
    }

    /** {@code force=True}, as Python writes a boolean in a query, is true, as kube reads every boolean parameter. */
    @Test
    void serverSideApplyForcesWithPythonsTrue() throws Exception {
        kubectl.ok("create", "namespace", "py-apply");
        kubectl.ok("create", "configmap", "shared", "-n", "py-apply", "--from-literal=k=kubectl");
        BlockingQueue<String> lines = run("""
                import json, sys
                from kubernetes import config, dynamic
                from kubernetes.client import api_client
                config.load_kube_config(sys.argv[1])
                client = dynamic.DynamicClient(api_client.ApiClient())
                cms = client.resources.get(api_version="v1", kind="ConfigMap")
                # This client sends an apply patch only as text.
                body = json.dumps({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "shared"},
                                   "data": {"k": "python"}})
                try:
                    cms.server_side_apply(body=body, name="shared", namespace="py-apply", field_manager="py")
                    print("applied without force", flush=True)
                except dynamic.exceptions.ConflictError:
                    print("conflict", flush=True)
                applied = cms.server_side_apply(body=body, name="shared", namespace="py-apply", field_manager="py",
                                                force_conflicts=True)
                print("forced", applied.data.k, flush=True)
                """);
        assertEquals("conflict", lines.poll(WAIT_SECONDS, TimeUnit.SECONDS));
        assertEquals("forced python", lines.poll(WAIT_SECONDS, TimeUnit.SECONDS));
    }

    /** Starts a Python script with the admin kubeconfig as its argument; its output lines, as they are printed. */
    private BlockingQueue<String> run(String script) throws IOException {
        Path file = Files.createTempFile(work, "client", ".py");
        Files.writeString(file, script);
        Process p = new ProcessBuilder(System.getProperty("kubelix.itest.python", "/usr/bin/python3"), file.toString(),
                server.kubeconfig().toString())
                .redirectError(ProcessBuilder.Redirect.appendTo(work.resolve("python.err").toFile()))
                .start();
        scripts.add(p);
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    lines.add(line);
                }
            } catch (IOException e) {
                lines.add("read failed: " + e);
            }
        }, "python-output");
        reader.setDaemon(true);
        reader.start();
        return lines;
    }
}
