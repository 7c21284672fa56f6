package io.kubelix.itest.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubelix.itest.e2e.Kubectl.Result;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.nio.file.Files;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The aggregator end to end: a second Kubelix, serving the widget plugin's group
 * ({@code sample.kubelix.io/v1}) and trusting the first one's front-proxy CA, is registered with
 * an APIService whose service is an ExternalName {@code localhost}; kubectl, talking only to the
 * first server, discovers, lists, creates and watches widgets through the proxy, as the user it
 * authenticates as; when the extension server stops the APIService turns unavailable and its group
 * answers 503 while everything else works, and when it comes back so does the group. The server's
 * own group versions, CRDs' included, have local APIServices that come and go with them. Each server
 * publishes whom it trusts in {@code kube-system/extension-apiserver-authentication}, which extension
 * servers may read. A metrics server answering {@code metrics.k8s.io/v1beta1} is registered as
 * metrics-server is, and {@code kubectl top} prints its numbers through the aggregating server.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KubectlAggregatorIT {
    private static final Duration READY_TIMEOUT = KubectlSuite.READY_TIMEOUT;
    private static final Duration AVAILABILITY_TIMEOUT = Duration.ofSeconds(90);
    private static final String API_SERVICE = "v1.sample.kubelix.io";
    private static final ObjectMapper JSON = new ObjectMapper();

    private Path work;
    private KubelixServer extension;
    private KubelixServer server;
    private Kubectl kubectl;
    private Kubectl extensionKubectl;
    private Path frontProxyCA;
    private MetricsAPIServer metrics;

    @BeforeAll
    void start() throws Exception {
        work = KubelixServer.workDirectory("aggregator");
        TestPki frontProxy = new TestPki(work.resolve("front-proxy")).ca("front-proxy-ca");
        frontProxy.client("proxy", "/CN=front-proxy-client");
        frontProxyCA = frontProxy.dir().resolve("ca.crt");
        Path extensionWork = KubelixServer.workDirectory("aggregator-extension");
        // The extension server: the full distribution (widgets), believing users named by the front proxy.
        extension = KubelixServer.start(Path.of(KubelixServer.property("kubelix.itest.distribution.full")),
                extensionWork, READY_TIMEOUT,
                "--tls-san", "api.extensions.svc",
                "--requestheader-client-ca-file", frontProxy.dir().resolve("ca.crt").toString(),
                "--requestheader-allowed-names", "front-proxy-client",
                "--requestheader-username-headers", "X-Remote-User",
                "--requestheader-group-headers", "X-Remote-Group",
                "--requestheader-extra-headers-prefix", "X-Remote-Extra-");
        extensionKubectl = extension.kubectl(extensionWork);
        // The aggregating server: the default distribution, which has no widgets of its own.
        server = KubelixServer.start(Path.of(KubelixServer.property("kubelix.itest.distribution.default")), work,
                READY_TIMEOUT,
                "--proxy-client-cert-file", frontProxy.dir().resolve("proxy.crt").toString(),
                "--proxy-client-key-file", frontProxy.dir().resolve("proxy.key").toString());
        kubectl = server.kubectl(work);
    }

    @AfterAll
    void stop() throws Exception {
        if (metrics != null) {
            metrics.close();
        }
        if (server != null) {
            server.close();
        }
        if (extension != null) {
            extension.close();
        }
    }

    @Test
    @Order(1)
    void anAPIServiceOfAnExternalNameServiceBecomesAvailable() throws Exception {
        assertNotEquals(0, kubectl.run("get", "widgets").exitCode(), "the aggregating server has no widgets itself");
        kubectl.ok("create", "namespace", "extensions");
        kubectl.ok("create", "service", "externalname", "api", "-n", "extensions", "--external-name", "localhost");
        String caBundle = Base64.getEncoder().encodeToString(Files.readAllBytes(extension.dataDir().resolve("pki")
                .resolve("ca.crt")));
        kubectl.ok("apply", "-f", write("apiservice.yaml", """
                apiVersion: apiregistration.k8s.io/v1
                kind: APIService
                metadata:
                  name: %s
                spec:
                  group: sample.kubelix.io
                  version: v1
                  groupPriorityMinimum: 1000
                  versionPriority: 15
                  caBundle: %s
                  service:
                    namespace: extensions
                    name: api
                    port: %d
                """.formatted(API_SERVICE, caBundle, extension.port())).toString());

        Result waited = kubectl.run("wait", "--for=condition=Available", "apiservice/" + API_SERVICE,
                "--timeout=" + AVAILABILITY_TIMEOUT.toSeconds() + "s");
        assertEquals(0, waited.exitCode(), () -> waited + "\n" + server.log());
        assertEquals("Passed", kubectl.ok("get", "apiservice", API_SERVICE, "-o",
                "jsonpath={.status.conditions[?(@.type==\"Available\")].reason}").stdout());
        String row = kubectl.ok("get", "apiservice", API_SERVICE).stdout();
        assertTrue(row.matches("(?s)NAME\\s+SERVICE\\s+AVAILABLE\\s+AGE\\s+" + API_SERVICE.replace(".", "\\.")
                + "\\s+extensions/api\\s+True\\s+\\S+\\s*"), row);
    }

    @Test
    @Order(2)
    void discoveryListsTheRemoteGroupAndKubectlUsesItThroughTheProxy() throws Exception {
        await("widgets in discovery", () -> kubectl.run("api-resources", "--api-group=sample.kubelix.io"),
                r -> r.exitCode() == 0 && r.stdout().contains("widgets"));
        assertTrue(kubectl.ok("api-versions").stdout().lines().anyMatch("sample.kubelix.io/v1"::equals));

        Path out = work.resolve("widgets-watch.out");
        Process watch = kubectl.background(out, "get", "widgets", "-n", "default", "--watch", "--output-watch-events",
                "-o", "custom-columns=EVENT:.type,NAME:.object.metadata.name");
        try {
            kubectl.ok("create", "-f", write("widget.yaml", """
                    apiVersion: sample.kubelix.io/v1
                    kind: Widget
                    metadata: {name: first, namespace: default}
                    spec: {}
                    """).toString());
            await("the watch through the proxy sees the widget added", () -> Files.readString(out),
                    s -> s.lines().anyMatch(l -> l.matches("ADDED\\s+first")));
        } finally {
            watch.destroy();
        }
        // Defaulted by the extension server's strategy, and stored there.
        assertEquals("1", kubectl.ok("get", "widget", "first", "-n", "default", "-o", "jsonpath={.spec.size}").stdout());
        assertEquals("first", extensionKubectl.ok("get", "widgets", "-n", "default", "-o",
                "jsonpath={.items[*].metadata.name}").stdout());
        Result table = kubectl.ok("get", "widgets", "-n", "default");
        assertTrue(table.stdout().matches("(?s)NAME\\s+SIZE\\s+AGE\\s+first\\s+1\\s+.*"), table::toString);

        // A list in pages (limit and continue pass through), a delete, and the kind's schema from the merged OpenAPI.
        kubectl.ok("create", "-f", write("second.yaml", """
                apiVersion: sample.kubelix.io/v1
                kind: Widget
                metadata: {name: second, namespace: default}
                spec: {size: 2}
                """).toString());
        assertEquals(List.of("widget.sample.kubelix.io/first", "widget.sample.kubelix.io/second"),
                kubectl.ok("get", "widgets", "-n", "default", "--chunk-size=1", "-o", "name").stdout().lines().toList());
        kubectl.ok("delete", "widget", "second", "-n", "default");
        assertEquals("first", extensionKubectl.ok("get", "widgets", "-n", "default", "-o",
                "jsonpath={.items[*].metadata.name}").stdout());
        Result explain = kubectl.ok("explain", "widgets.spec");
        assertTrue(explain.stdout().contains("size"), explain::toString);
    }

    @Test
    @Order(3)
    void aWebSocketWatchIsUpgradedThroughTheProxy() throws Exception {
        String token = Files.readAllLines(server.kubeconfig()).stream().map(String::trim)
                .filter(l -> l.startsWith("token:")).map(l -> l.substring("token:".length()).trim()).findFirst().orElseThrow();
        CompletableFuture<String> firstEvent = new CompletableFuture<>();
        StringBuilder text = new StringBuilder();
        WebSocket.Listener listener = new WebSocket.Listener() {
            @Override
            public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
                text.append(data);
                if (last) {
                    firstEvent.complete(text.toString());
                }
                ws.request(1);
                return null;
            }

            @Override
            public CompletionStage<?> onBinary(WebSocket ws, ByteBuffer data, boolean last) {
                text.append(StandardCharsets.UTF_8.decode(data));
                if (last) {
                    firstEvent.complete(text.toString());
                }
                ws.request(1);
                return null;
            }

            @Override
            public void onError(WebSocket ws, Throwable error) {
                firstEvent.completeExceptionally(error);
            }
        };
        // The extension server upgrades the watch to a WebSocket; the aggregator relays the 101 and the frames.
        WebSocket ws = HttpClient.newBuilder().sslContext(KubelixServer.trusting(server.caCertificate())).build()
                .newWebSocketBuilder().header("Authorization", "Bearer " + token)
                .buildAsync(URI.create("wss://127.0.0.1:" + server.port()
                        + "/apis/sample.kubelix.io/v1/namespaces/default/widgets?watch=true"), listener)
                .get(30, TimeUnit.SECONDS);
        try {
            JsonNode event = JSON.readTree(firstEvent.get(30, TimeUnit.SECONDS));
            assertEquals("ADDED", event.path("type").asText(), event::toString);
            assertEquals("first", event.path("object").path("metadata").path("name").asText(), event::toString);
        } finally {
            ws.abort();
        }
    }

    @Test
    @Order(4)
    void theExtensionServerAuthorizesTheUserTheAggregatorAuthenticated() throws Exception {
        // bob may read widgets on the aggregating server; the extension server sees bob (not the caller's
        // credentials) and forbids him until it has its own binding for him.
        kubectl.ok("create", "clusterrole", "widget-reader", "--verb=get,list,watch", "--resource=widgets.sample.kubelix.io");
        kubectl.ok("create", "clusterrolebinding", "bob-reads-widgets", "--clusterrole=widget-reader", "--user=bob");
        Result forbidden = kubectl.run("get", "widgets", "-n", "default", "--as=bob");
        assertNotEquals(0, forbidden.exitCode(), forbidden::toString);
        assertTrue(forbidden.stderr().contains("widgets.sample.kubelix.io is forbidden: User \"bob\" cannot list resource "
                + "\"widgets\" in API group \"sample.kubelix.io\" in the namespace \"default\""), forbidden::toString);

        extensionKubectl.ok("create", "clusterrole", "widget-reader", "--verb=get,list,watch",
                "--resource=widgets.sample.kubelix.io");
        extensionKubectl.ok("create", "clusterrolebinding", "bob-reads-widgets", "--clusterrole=widget-reader",
                "--user=bob");
        Result allowed = await("bob lists widgets through the proxy", () -> kubectl.run("get", "widgets", "-n", "default",
                "--as=bob", "-o", "name"), r -> r.exitCode() == 0);
        assertEquals("widget.sample.kubelix.io/first", allowed.stdout().strip());
    }

    @Test
    @Order(5)
    void aStoppedExtensionServerMakesItsGroupUnavailableWhileTheRestWorks() throws Exception {
        extension.stop();
        Result reason = await("the APIService unavailable", () -> kubectl.run("get", "apiservice", API_SERVICE, "-o",
                "jsonpath={.status.conditions[?(@.type==\"Available\")].status}/{.status.conditions[?(@.type==\"Available\")].reason}"),
                r -> r.stdout().equals("False/FailedDiscoveryCheck"));
        assertEquals(0, reason.exitCode(), reason::toString);
        assertTrue(kubectl.ok("get", "apiservice", API_SERVICE).stdout().contains("False (FailedDiscoveryCheck)"));

        Result unavailable = kubectl.run("get", "--raw", "/apis/sample.kubelix.io/v1/namespaces/default/widgets");
        assertNotEquals(0, unavailable.exitCode(), unavailable::toString);
        assertTrue(unavailable.stderr().contains("ServiceUnavailable"), unavailable::toString);

        // The rest of the server is unaffected, discovery included: the unavailable group is left out.
        kubectl.ok("create", "configmap", "still-here", "--from-literal=k=v");
        Result resources = await("discovery without the stale group", () -> kubectl.run("api-resources"),
                r -> r.exitCode() == 0 && !r.stdout().contains("sample.kubelix.io"));
        assertTrue(resources.stdout().contains("configmaps"), resources::toString);

        extension.startAgain(READY_TIMEOUT);
        Result waited = kubectl.run("wait", "--for=condition=Available", "apiservice/" + API_SERVICE,
                "--timeout=" + AVAILABILITY_TIMEOUT.toSeconds() + "s");
        assertEquals(0, waited.exitCode(), waited::toString);
        await("widgets served again", () -> kubectl.run("get", "widgets", "-n", "default", "-o", "name"),
                r -> r.exitCode() == 0 && r.stdout().strip().equals("widget.sample.kubelix.io/first"));
    }

    @Test
    @Order(6)
    void theServersOwnGroupVersionsHaveLocalAPIServicesThatFollowCRDs() throws Exception {
        Result apps = await("the local APIService of apps/v1", () -> kubectl.run("get", "apiservice", "v1.apps", "-o",
                "jsonpath={.spec.groupPriorityMinimum}/{.spec.versionPriority}/{.status.conditions[0].reason}"),
                r -> r.exitCode() == 0);
        assertEquals("17800/15/Local", apps.stdout());
        String table = kubectl.ok("get", "apiservices").stdout();
        assertTrue(table.lines().anyMatch(l -> l.matches("v1\\.\\s+Local\\s+True\\s+\\S+")), table);
        assertTrue(table.lines().anyMatch(l -> l.matches(API_SERVICE.replace(".", "\\.")
                + "\\s+extensions/api\\s+True\\s+\\S+")), "the remote APIService is left alone: " + table);

        kubectl.ok("apply", "-f", write("crd.yaml", """
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata: {name: gadgets.stable.example.com}
                spec:
                  group: stable.example.com
                  scope: Namespaced
                  names: {plural: gadgets, singular: gadget, kind: Gadget}
                  versions:
                  - name: v1
                    served: true
                    storage: true
                    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
                """).toString());
        Result crd = await("the CRD's local APIService", () -> kubectl.run("get", "apiservice", "v1.stable.example.com",
                "-o", "jsonpath={.metadata.labels.kube-aggregator\\.kubernetes\\.io/automanaged}/{.spec.groupPriorityMinimum}"),
                r -> r.exitCode() == 0);
        assertEquals("true/1000", crd.stdout());
        kubectl.ok("delete", "crd", "gadgets.stable.example.com");
        await("the CRD's APIService gone with it", () -> kubectl.run("get", "apiservice", "v1.stable.example.com"),
                r -> r.exitCode() != 0 && r.stderr().contains("NotFound"));
    }

    @Test
    @Order(7)
    void eachServerPublishesWhomItTrustsForExtensionServersToRead() throws Exception {
        // The extension server runs with --requestheader-*: its ConfigMap has the front proxy's CA and settings.
        JsonNode data = await("the extension server's authentication ConfigMap", () -> extensionKubectl.run("get",
                "configmap", "extension-apiserver-authentication", "-n", "kube-system", "-o", "json"),
                r -> r.exitCode() == 0 && r.stdout().contains("requestheader-client-ca-file"), extension)
                .stdout().transform(KubectlAggregatorIT::data);
        assertEquals(certificates(Files.readString(extension.dataDir().resolve("pki").resolve("ca.crt"))),
                certificates(data.path("client-ca-file").asText()));
        assertEquals(certificates(Files.readString(frontProxyCA)),
                certificates(data.path("requestheader-client-ca-file").asText()));
        assertEquals("[\"front-proxy-client\"]", data.path("requestheader-allowed-names").asText());
        assertEquals("[\"X-Remote-User\"]", data.path("requestheader-username-headers").asText());
        assertEquals("[]", data.path("requestheader-uid-headers").asText());
        assertEquals("[\"X-Remote-Group\"]", data.path("requestheader-group-headers").asText());
        assertEquals("[\"X-Remote-Extra-\"]", data.path("requestheader-extra-headers-prefix").asText());

        // The aggregating server has no request header settings: only its client CA. Deleted, it comes back.
        JsonNode own = await("the aggregating server's authentication ConfigMap", () -> kubectl.run("get", "configmap",
                "extension-apiserver-authentication", "-n", "kube-system", "-o", "json"), r -> r.exitCode() == 0)
                .stdout().transform(KubectlAggregatorIT::data);
        assertEquals(List.of("client-ca-file"), fieldNames(own));
        kubectl.ok("delete", "configmap", "extension-apiserver-authentication", "-n", "kube-system");
        await("the ConfigMap put back", () -> kubectl.run("get", "configmap", "extension-apiserver-authentication", "-n",
                "kube-system", "-o", "jsonpath={.data.client-ca-file}"), r -> r.exitCode() == 0 && !r.stdout().isEmpty());

        // kube's Role lets an extension server's identity read it, and nothing else of kube-system.
        kubectl.ok("create", "rolebinding", "sample-auth-reader", "-n", "kube-system",
                "--role=extension-apiserver-authentication-reader", "--user=sample-apiserver");
        Result canRead = kubectl.run("auth", "can-i", "get", "configmap/extension-apiserver-authentication", "-n",
                "kube-system", "--as=sample-apiserver");
        assertEquals("yes", canRead.stdout().strip(), canRead::toString);
        Result cannotList = kubectl.run("auth", "can-i", "list", "secrets", "-n", "kube-system", "--as=sample-apiserver");
        assertEquals("no", cannotList.stdout().strip(), cannotList::toString);
    }

    @Test
    @Order(8)
    void kubectlTopPrintsTheNumbersOfAMetricsServerBehindAnAPIService() throws Exception {
        Map<String, MetricsAPIServer.Usage> containers = new LinkedHashMap<>();
        containers.put("app", new MetricsAPIServer.Usage("5m", "20Mi"));
        containers.put("sidecar", new MetricsAPIServer.Usage("10m", "30Mi"));
        metrics = new MetricsAPIServer(work.resolve("metrics"),
                Map.of("metrics-node", new MetricsAPIServer.Usage("250m", "512Mi")),
                List.of(new MetricsAPIServer.Pod("default", "web", containers)));
        kubectl.ok("create", "-f", write("node.yaml", """
                apiVersion: v1
                kind: Node
                metadata: {name: metrics-node}
                status:
                  capacity: {cpu: "4", memory: 8Gi}
                  allocatable: {cpu: "4", memory: 8Gi}
                """).toString());
        Path pod = write("pod.yaml", """
                apiVersion: v1
                kind: Pod
                metadata: {name: web, namespace: default}
                spec:
                  containers:
                  - {name: app, image: nginx}
                  - {name: sidecar, image: busybox}
                """);
        await("the pod created", () -> kubectl.run("apply", "-f", pod.toString()), r -> r.exitCode() == 0);
        // As metrics-server registers itself: an APIService in kube-system whose server is not verified.
        kubectl.ok("create", "service", "externalname", "metrics-server", "-n", "kube-system", "--external-name",
                "localhost");
        kubectl.ok("apply", "-f", write("metrics-apiservice.yaml", """
                apiVersion: apiregistration.k8s.io/v1
                kind: APIService
                metadata:
                  name: v1beta1.metrics.k8s.io
                spec:
                  group: metrics.k8s.io
                  version: v1beta1
                  groupPriorityMinimum: 100
                  versionPriority: 100
                  insecureSkipTLSVerify: true
                  service:
                    namespace: kube-system
                    name: metrics-server
                    port: %d
                """.formatted(metrics.port())).toString());
        Result waited = kubectl.run("wait", "--for=condition=Available", "apiservice/v1beta1.metrics.k8s.io",
                "--timeout=" + AVAILABILITY_TIMEOUT.toSeconds() + "s");
        assertEquals(0, waited.exitCode(), () -> waited + "\n" + server.log());

        // 250m of 4 cores and 512Mi of 8Gi are 6 %.
        Result nodes = await("kubectl top nodes", () -> kubectl.run("top", "nodes"), r -> r.exitCode() == 0);
        assertTrue(nodes.stdout().lines().anyMatch(l -> l.matches("metrics-node\\s+250m\\s+6%\\s+512Mi\\s+6%\\s*")),
                nodes::toString);
        Result node = kubectl.ok("top", "node", "metrics-node");
        assertTrue(node.stdout().lines().anyMatch(l -> l.matches("metrics-node\\s+250m\\s+6%\\s+512Mi\\s+6%\\s*")),
                node::toString);
        Result pods = kubectl.ok("top", "pods", "-n", "default");
        assertTrue(pods.stdout().lines().anyMatch(l -> l.matches("web\\s+15m\\s+50Mi\\s*")), pods::toString);
        Result byContainer = kubectl.ok("top", "pod", "web", "-n", "default", "--containers");
        assertTrue(byContainer.stdout().lines().anyMatch(l -> l.matches("web\\s+app\\s+5m\\s+20Mi\\s*")),
                byContainer::toString);
        assertTrue(byContainer.stdout().lines().anyMatch(l -> l.matches("web\\s+sidecar\\s+10m\\s+30Mi\\s*")),
                byContainer::toString);
    }

    private static JsonNode data(String configMap) {
        try {
            return JSON.readTree(configMap).path("data");
        } catch (java.io.IOException e) {
            throw new IllegalStateException(configMap, e);
        }
    }

    private static List<String> fieldNames(JsonNode o) {
        List<String> names = new java.util.ArrayList<>();
        o.fieldNames().forEachRemaining(names::add);
        return names;
    }

    /** The certificates of a PEM bundle, so the same bundle written otherwise compares equal. */
    private static List<Certificate> certificates(String pem) throws Exception {
        return List.copyOf(CertificateFactory.getInstance("X.509")
                .generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII))));
    }

    private Path write(String name, String content) throws Exception {
        Path file = work.resolve(name);
        Files.writeString(file, content);
        return file;
    }

    private <T> T await(String what, Callable<T> attempt, Predicate<T> done) throws Exception {
        return await(what, attempt, done, server);
    }

    private <T> T await(String what, Callable<T> attempt, Predicate<T> done, KubelixServer on) throws Exception {
        return on.await(what, AVAILABILITY_TIMEOUT, attempt, done);
    }
}
