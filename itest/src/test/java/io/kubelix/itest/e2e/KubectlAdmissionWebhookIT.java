package io.kubelix.itest.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.itest.e2e.Kubectl.Result;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The admission-webhook plugin in the full distribution, driven by the real kubectl against
 * webhooks this test serves over HTTPS with a CA of its own: a mutating webhook's label on the
 * created object, a validating webhook's denial as kubectl prints it, a webhook reached through a
 * service, {@code failurePolicy} both ways with the webhook's server stopped, namespace and object
 * selectors, a dry run sent to the webhooks as one, reinvocation, a webhook on {@code autoscaling/v2}
 * called for an {@code autoscaling/v1} request with the object converted ({@code matchPolicy: Equivalent})
 * and not with {@code Exact}, and the plugins switched off
 * ({@code --disable-admission-plugins}) or refused by name ({@code --enable-admission-plugins}), and
 * the plugin taken out of {@code plugins/} (no more calls) and put back (calls again), and a webhook
 * requiring a client certificate and a bearer token called with those the plugins' {@code kubeConfigFile}
 * gives its host and port. The methods run in order on one server.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KubectlAdmissionWebhookIT extends KubectlSuite {
    private static final String MUTATED = "webhook.kubelix.io/mutated";

    private static final String SECURED_TOKEN = "webhook-s3cret";

    private AdmissionWebhookServer webhook;
    /** A webhook server that requires a client certificate and a bearer token. */
    private AdmissionWebhookServer secured;

    KubectlAdmissionWebhookIT() {
        super("admission-webhook", "mutatingwebhookconfigurations,validatingwebhookconfigurations");
    }

    /**
     * kube's webhook admission configuration for both plugins: a kubeConfigFile whose user for the
     * secured webhook server's host and port gives a client certificate of its client CA and a token.
     */
    @Override
    String[] flags() throws Exception {
        secured = new AdmissionWebhookServer(work.resolve("secured-pki"), SECURED_TOKEN);
        Path kubeconfig = write("webhook.kubeconfig", """
                apiVersion: v1
                kind: Config
                users:
                - name: "127.0.0.1:%d"
                  user:
                    token: %s
                    client-certificate: secured-pki/client.crt
                    client-key: secured-pki/client.key
                - name: "*.example.com"
                  user: {token: not-for-this-server}
                """.formatted(secured.port(), SECURED_TOKEN));
        String webhookAdmission = """
                  configuration:
                    apiVersion: apiserver.config.k8s.io/v1
                    kind: WebhookAdmissionConfiguration
                    kubeConfigFile: %s
                """.formatted(kubeconfig.toAbsolutePath());
        Path admission = write("admission.yaml", """
                apiVersion: apiserver.config.k8s.io/v1
                kind: AdmissionConfiguration
                plugins:
                - name: ValidatingAdmissionWebhook
                %s- name: MutatingAdmissionWebhook
                %s""".formatted(webhookAdmission, webhookAdmission));
        return new String[] {"--admission-control-config-file", admission.toString()};
    }

    @Override
    void afterStart() throws Exception {
        webhook = new AdmissionWebhookServer(work.resolve("webhook-pki"));
        webhook.handle("/label", r -> AdmissionWebhookServer.label(r, MUTATED, "true"));
        webhook.handle("/inject", r -> AdmissionWebhookServer.label(r, "injected", "true"));
        webhook.handle("/deny", r -> r.path("request").path("object").path("data").has("forbidden")
                ? AdmissionWebhookServer.deny(r, "the key \"forbidden\" is not allowed")
                : AdmissionWebhookServer.allow(r));
        webhook.handle("/reinvoke-first", r -> r.path("request").path("object").path("metadata").path("labels").has("second")
                ? AdmissionWebhookServer.label(r, "first-saw-second", "true")
                : AdmissionWebhookServer.label(r, "first", "true"));
        webhook.handle("/reinvoke-second", r -> AdmissionWebhookServer.label(r, "second", "true"));
        webhook.handle("/hpa", AdmissionWebhookServer::allow);
        webhook.handle("/hpa-exact", AdmissionWebhookServer::allow);
    }

    @AfterAll
    void stopWebhook() {
        if (webhook != null) {
            webhook.close();
        }
        if (secured != null) {
            secured.close();
        }
    }

    @Test
    @Order(1)
    void aMutatingWebhookLabelsTheCreatedObject() throws Exception {
        apply("labeler.yaml", """
                apiVersion: admissionregistration.k8s.io/v1
                kind: MutatingWebhookConfiguration
                metadata: {name: labeler}
                webhooks:
                - name: label.kubelix.io
                  clientConfig: {url: "https://127.0.0.1:%d/label", caBundle: %s}
                  rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [configmaps], scope: Namespaced}]
                  objectSelector: {matchExpressions: [{key: skip-webhook, operator: DoesNotExist}]}
                  sideEffects: None
                  admissionReviewVersions: [v1]
                """.formatted(webhook.port(), webhook.caBundle()));

        // The configuration is read through an informer: it applies within a moment.
        await("the labeler to be called", () -> createdLabels("probe-" + System.nanoTime()),
                labels -> "true".equals(labels.path(MUTATED).asText()));
        kubectl.ok("create", "configmap", "labelled", "--from-literal=k=v");
        assertEquals("true", kubectl.ok("get", "configmap", "labelled", "-o",
                "jsonpath={.metadata.labels.webhook\\.kubelix\\.io/mutated}").stdout());

        JsonNode review = webhook.reviews("/label").get(webhook.reviews("/label").size() - 1).path("request");
        assertEquals("CREATE", review.path("operation").asText());
        assertEquals("labelled", review.path("name").asText());
        assertEquals("default", review.path("namespace").asText());
        assertEquals("{\"group\":\"\",\"version\":\"v1\",\"kind\":\"ConfigMap\"}", review.path("kind").toString());
        assertEquals("admin", review.path("userInfo").path("username").asText(), review::toString);
        assertTrue(review.path("userInfo").path("groups").toString().contains("system:masters"), review::toString);
        assertEquals("CreateOptions", review.path("options").path("kind").asText(), review::toString);
        assertTrue(review.path("oldObject").isNull(), review::toString);

        // objectSelector: an object labelled skip-webhook is not sent to the webhook.
        Path skipped = manifest("skipped.yaml", """
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: skipped, labels: {skip-webhook: "yes"}}
                """);
        kubectl.ok("create", "-f", skipped.toString());
        assertEquals("", kubectl.ok("get", "configmap", "skipped", "-o",
                "jsonpath={.metadata.labels.webhook\\.kubelix\\.io/mutated}").stdout());
    }

    @Test
    @Order(2)
    void aValidatingWebhookReachedThroughAServiceDeniesWithItsMessage() throws Exception {
        kubectl.ok("create", "namespace", "webhooks");
        apply("service.yaml", """
                apiVersion: v1
                kind: Service
                metadata: {name: webhook, namespace: webhooks}
                spec: {type: ExternalName, externalName: localhost}
                ---
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingWebhookConfiguration
                metadata: {name: deny-forbidden}
                webhooks:
                - name: deny.kubelix.io
                  clientConfig:
                    service: {namespace: webhooks, name: webhook, port: %d, path: /deny}
                    caBundle: %s
                  rules: [{operations: [CREATE, UPDATE], apiGroups: [""], apiVersions: [v1], resources: [configmaps]}]
                  sideEffects: None
                  admissionReviewVersions: [v1]
                """.formatted(webhook.port(), webhook.caBundle()));
        Path bad = manifest("bad.yaml", """
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: bad}
                data: {forbidden: "yes"}
                """);

        Result denied = await("the denial", () -> kubectl.run("create", "-f", bad.toString()), r -> r.exitCode() != 0);
        assertEquals("Error from server (Forbidden): error when creating \"" + bad + "\": admission webhook "
                + "\"deny.kubelix.io\" denied the request: the key \"forbidden\" is not allowed", denied.stderr().trim());
        assertNotEquals(0, kubectl.run("get", "configmap", "bad").exitCode());
        kubectl.ok("create", "configmap", "good", "--from-literal=allowed=yes");
    }

    @Test
    @Order(3)
    void failurePolicyDecidesWhenTheWebhookCannotBeReached() throws Exception {
        int stopped;
        try (AdmissionWebhookServer down = new AdmissionWebhookServer(work.resolve("down-pki"))) {
            stopped = down.port();
            apply("down.yaml", """
                    apiVersion: admissionregistration.k8s.io/v1
                    kind: ValidatingWebhookConfiguration
                    metadata: {name: down}
                    webhooks:
                    - name: down-ignore.kubelix.io
                      clientConfig: {url: "https://127.0.0.1:%1$d/check", caBundle: %2$s}
                      rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [configmaps]}]
                      objectSelector: {matchLabels: {policy: ignore}}
                      failurePolicy: Ignore
                      sideEffects: None
                      admissionReviewVersions: [v1]
                    - name: down-fail.kubelix.io
                      clientConfig: {url: "https://127.0.0.1:%1$d/check", caBundle: %2$s}
                      rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [configmaps]}]
                      objectSelector: {matchLabels: {policy: fail}}
                      failurePolicy: Fail
                      sideEffects: None
                      admissionReviewVersions: [v1]
                    """.formatted(down.port(), down.caBundle()));
            await("the webhook called while its server is up", () -> {
                Path up = manifest("up.yaml", configMap("up-" + System.nanoTime(), "policy: fail"));
                kubectl.ok("create", "-f", up.toString());
                return down.reviews("/check").size();
            }, n -> n > 0);
        }

        Path ignored = manifest("ignored.yaml", configMap("ignored", "policy: ignore"));
        kubectl.ok("create", "-f", ignored.toString());
        Path failed = manifest("failed.yaml", configMap("failed", "policy: fail"));
        Result r = kubectl.run("create", "-f", failed.toString());
        assertNotEquals(0, r.exitCode(), r::toString);
        assertEquals("Error from server (InternalError): error when creating \"" + failed + "\": Internal error occurred: "
                + "failed calling webhook \"down-fail.kubelix.io\": failed to call webhook: Post \"https://127.0.0.1:"
                + stopped + "/check?timeout=10s\": dial tcp 127.0.0.1:" + stopped + ": connect: connection refused",
                r.stderr().trim());
        kubectl.ok("delete", "validatingwebhookconfiguration", "down");
    }

    @Test
    @Order(4)
    void aNamespaceSelectorChoosesTheNamespacesAWebhookSees() throws Exception {
        kubectl.ok("create", "namespace", "injected");
        kubectl.ok("label", "namespace", "injected", "inject=true");
        kubectl.ok("create", "namespace", "plain");
        apply("inject.yaml", """
                apiVersion: admissionregistration.k8s.io/v1
                kind: MutatingWebhookConfiguration
                metadata: {name: injector}
                webhooks:
                - name: inject.kubelix.io
                  clientConfig: {url: "https://127.0.0.1:%d/inject", caBundle: %s}
                  rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [configmaps]}]
                  namespaceSelector: {matchLabels: {inject: "true"}}
                  sideEffects: None
                  admissionReviewVersions: [v1]
                """.formatted(webhook.port(), webhook.caBundle()));

        await("the injector in namespace injected", () -> {
            String name = "c-" + System.nanoTime();
            kubectl.ok("create", "configmap", name, "-n", "injected");
            return kubectl.ok("get", "configmap", name, "-n", "injected", "-o", "jsonpath={.metadata.labels.injected}")
                    .stdout();
        }, "true"::equals);
        kubectl.ok("create", "configmap", "c", "-n", "plain");
        assertEquals("", kubectl.ok("get", "configmap", "c", "-n", "plain", "-o",
                "jsonpath={.metadata.labels.injected}").stdout());
        kubectl.ok("delete", "mutatingwebhookconfiguration", "injector");
    }

    @Test
    @Order(5)
    void aDryRunReachesWebhooksAsADryRunAndStoresNothing() throws Exception {
        // admissionregistration/v1 accepts only webhooks without side effects, or none on a dry run.
        Result some = kubectl.run("apply", "-f", manifest("some.yaml", """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingWebhookConfiguration
                metadata: {name: side-effects}
                webhooks:
                - name: some.kubelix.io
                  clientConfig: {url: "https://127.0.0.1:%d/some"}
                  rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [configmaps]}]
                  sideEffects: Some
                  admissionReviewVersions: [v1]
                """.formatted(webhook.port())).toString());
        assertTrue(some.stderr().contains("webhooks[0].sideEffects: Unsupported value: \"Some\": supported values: "
                + "\"None\", \"NoneOnDryRun\""), some::toString);
        apply("side-effects.yaml", """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingWebhookConfiguration
                metadata: {name: side-effects}
                webhooks:
                - name: none-on-dry-run.kubelix.io
                  clientConfig: {url: "https://127.0.0.1:%d/none-on-dry-run", caBundle: %s}
                  rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [configmaps]}]
                  objectSelector: {matchLabels: {effects: none}}
                  sideEffects: NoneOnDryRun
                  admissionReviewVersions: [v1]
                """.formatted(webhook.port(), webhook.caBundle()));
        Path none = manifest("none.yaml", configMap("none", "effects: none"));

        JsonNode dryRun = await("the dry run sent to the webhook", () -> {
            Result r = kubectl.ok("create", "--dry-run=server", "-f", none.toString(), "-o", "json");
            List<JsonNode> reviews = webhook.reviews("/none-on-dry-run");
            return reviews.isEmpty() ? null : JSON.readTree(r.stdout());
        }, java.util.Objects::nonNull);

        JsonNode review = webhook.reviews("/none-on-dry-run").get(0).path("request");
        assertEquals(true, review.path("dryRun").asBoolean(), review::toString);
        assertEquals("[\"All\"]", review.path("options").path("dryRun").toString(), review::toString);
        assertEquals("true", dryRun.path("metadata").path("labels").path(MUTATED).asText(),
                "a dry run shows what the mutating webhook made of the object: " + dryRun);
        assertNotEquals(0, kubectl.run("get", "configmap", "none").exitCode());
        kubectl.ok("delete", "validatingwebhookconfiguration", "side-effects");
    }

    @Test
    @Order(6)
    void aWebhookAskingForReinvocationSeesWhatALaterWebhookAdded() throws Exception {
        apply("reinvoke.yaml", """
                apiVersion: admissionregistration.k8s.io/v1
                kind: MutatingWebhookConfiguration
                metadata: {name: a-first}
                webhooks:
                - name: first.kubelix.io
                  clientConfig: {url: "https://127.0.0.1:%1$d/reinvoke-first", caBundle: %2$s}
                  rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [configmaps]}]
                  objectSelector: {matchLabels: {reinvoke: "yes"}}
                  reinvocationPolicy: IfNeeded
                  sideEffects: None
                  admissionReviewVersions: [v1]
                ---
                apiVersion: admissionregistration.k8s.io/v1
                kind: MutatingWebhookConfiguration
                metadata: {name: b-second}
                webhooks:
                - name: second.kubelix.io
                  clientConfig: {url: "https://127.0.0.1:%1$d/reinvoke-second", caBundle: %2$s}
                  rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [configmaps]}]
                  objectSelector: {matchLabels: {reinvoke: "yes"}}
                  sideEffects: None
                  admissionReviewVersions: [v1]
                """.formatted(webhook.port(), webhook.caBundle()));

        JsonNode labels = await("both webhooks", () -> {
            Path m = manifest("reinvoked.yaml", configMap("reinvoked-" + System.nanoTime(), "reinvoke: \"yes\""));
            return JSON.readTree(kubectl.ok("create", "-f", m.toString(), "-o", "json").stdout())
                    .path("metadata").path("labels");
        }, l -> l.has("first") && l.has("second"));

        assertEquals("true", labels.path("first-saw-second").asText(), labels::toString);
        assertEquals("true", labels.path(MUTATED).asText(), "the labeler ran too: " + labels);
    }

    @Test
    @Order(8)
    void admissionPluginsAreSwitchedWithKubesFlags() throws Exception {
        Path distribution = Path.of(KubelixServer.property("kubelix.itest.distribution"));
        AssertionError unknown = org.junit.jupiter.api.Assertions.assertThrows(AssertionError.class,
                () -> KubelixServer.start(distribution, KubelixServer.workDirectory("admission-unknown"), READY_TIMEOUT,
                        "--enable-admission-plugins=NamespaceLifecycle,Foo"));
        assertTrue(unknown.getMessage().contains("enable-admission-plugins plugin \"Foo\" is unknown"),
                unknown::getMessage);

        Path other = KubelixServer.workDirectory("admission-disabled");
        try (KubelixServer disabled = KubelixServer.start(distribution, other, READY_TIMEOUT,
                "--disable-admission-plugins=MutatingAdmissionWebhook")) {
            Kubectl k = disabled.kubectl(other);
            disabled.awaitServed(k, READY_TIMEOUT, "mutatingwebhookconfigurations");
            Path labeler = other.resolve("labeler.yaml");
            Files.copy(work.resolve("labeler.yaml"), labeler);
            k.ok("apply", "-f", labeler.toString());
            Path deny = other.resolve("deny.yaml");
            Files.writeString(deny, """
                    apiVersion: admissionregistration.k8s.io/v1
                    kind: ValidatingWebhookConfiguration
                    metadata: {name: deny-forbidden}
                    webhooks:
                    - name: deny.kubelix.io
                      clientConfig: {url: "https://127.0.0.1:%d/deny", caBundle: %s}
                      rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [configmaps]}]
                      sideEffects: None
                      admissionReviewVersions: [v1]
                    """.formatted(webhook.port(), webhook.caBundle()));
            k.ok("apply", "-f", deny.toString());

            // The validating webhook is called, so the configurations are read; the mutating one is not.
            disabled.await("the validating webhook", READY_TIMEOUT,
                    () -> k.run("create", "configmap", "bad", "--from-literal=forbidden=yes"), r -> r.exitCode() != 0);
            int labelled = webhook.reviews("/label").size();
            k.ok("create", "configmap", "plain", "--from-literal=k=v");
            assertEquals("", k.ok("get", "configmap", "plain", "-o",
                    "jsonpath={.metadata.labels.webhook\\.kubelix\\.io/mutated}").stdout());
            assertEquals(labelled, webhook.reviews("/label").size());
        }
    }

    @Test
    @Order(9)
    void removingThePluginStopsTheCallsAndPuttingItBackRestoresThem() throws Exception {
        Path aside = server.takePluginOut("admission-webhook", work.resolve("aside"));
        await("no webhook called once the plugin is out", () -> createdLabels("out-" + System.nanoTime()),
                labels -> !labels.has(MUTATED));
        Path bad = manifest("bad-while-out.yaml", """
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: bad-while-out}
                data: {forbidden: "yes"}
                """);
        kubectl.ok("create", "-f", bad.toString());

        server.putPluginBack(aside);
        await("the webhooks called again once the plugin is back", () -> createdLabels("back-" + System.nanoTime()),
                labels -> "true".equals(labels.path(MUTATED).asText()));
        Path again = manifest("bad-again.yaml", """
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: bad-again}
                data: {forbidden: "yes"}
                """);
        Result denied = kubectl.run("create", "-f", again.toString());
        assertTrue(denied.stderr().contains("admission webhook \"deny.kubelix.io\" denied the request"), denied::toString);
    }

    @Test
    @Order(7)
    void aWebhookOnOneVersionSeesARequestThroughAnotherConverted() throws Exception {
        apply("hpa-webhooks.yaml", """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingWebhookConfiguration
                metadata: {name: hpa-v2}
                webhooks:
                - name: equivalent.kubelix.io
                  clientConfig: {url: "https://127.0.0.1:%1$d/hpa", caBundle: %2$s}
                  rules: [{operations: [CREATE], apiGroups: [autoscaling], apiVersions: [v2], resources: [horizontalpodautoscalers]}]
                  sideEffects: None
                  admissionReviewVersions: [v1]
                - name: exact.kubelix.io
                  clientConfig: {url: "https://127.0.0.1:%1$d/hpa-exact", caBundle: %2$s}
                  rules: [{operations: [CREATE], apiGroups: [autoscaling], apiVersions: [v2], resources: [horizontalpodautoscalers]}]
                  matchPolicy: Exact
                  sideEffects: None
                  admissionReviewVersions: [v1]
                """.formatted(webhook.port(), webhook.caBundle()));
        // matchPolicy: Equivalent (the default): an autoscaling/v1 HorizontalPodAutoscaler reaches the v2 webhook as v2
        await("the equivalent webhook", () -> {
            kubectl.ok("create", "-f", manifest("hpa-v1.yaml", """
                    apiVersion: autoscaling/v1
                    kind: HorizontalPodAutoscaler
                    metadata: {name: web-%d}
                    spec:
                      scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
                      minReplicas: 1
                      maxReplicas: 3
                      targetCPUUtilizationPercentage: 70
                    """.formatted(System.nanoTime())).toString());
            return webhook.reviews("/hpa");
        }, reviews -> !reviews.isEmpty());
        JsonNode review = webhook.reviews("/hpa").get(0).path("request");
        assertEquals("{\"group\":\"autoscaling\",\"version\":\"v2\",\"kind\":\"HorizontalPodAutoscaler\"}",
                review.path("kind").toString(), review::toString);
        assertEquals("{\"group\":\"autoscaling\",\"version\":\"v2\",\"resource\":\"horizontalpodautoscalers\"}",
                review.path("resource").toString());
        assertEquals("{\"group\":\"autoscaling\",\"version\":\"v1\",\"kind\":\"HorizontalPodAutoscaler\"}",
                review.path("requestKind").toString());
        assertEquals("v1", review.path("requestResource").path("version").asText());
        assertEquals("autoscaling/v2", review.path("object").path("apiVersion").asText());
        assertEquals(70, review.path("object").path("spec").path("metrics").path(0).path("resource").path("target")
                .path("averageUtilization").asInt(), review::toString);
        assertEquals(List.of(), webhook.reviews("/hpa-exact"), "matchPolicy: Exact sees only v2 requests");
        kubectl.ok("delete", "validatingwebhookconfiguration", "hpa-v2");
    }

    @Test
    @Order(10)
    void aWebhookRequiringAClientCertificateAndATokenIsCalledWithThoseOfTheKubeConfigFile() throws Exception {
        apply("secured.yaml", """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingWebhookConfiguration
                metadata: {name: secured}
                webhooks:
                - name: secured.kubelix.io
                  clientConfig: {url: "https://127.0.0.1:%d/secured", caBundle: %s}
                  rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [secrets]}]
                  failurePolicy: Fail
                  sideEffects: None
                  admissionReviewVersions: [v1]
                """.formatted(secured.port(), secured.caBundle()));
        // Without the certificate or the token the call would fail, and failurePolicy Fail refuse the create.
        await("the secured webhook to be called", () -> {
            kubectl.ok("create", "secret", "generic", "probe-" + System.nanoTime(), "--from-literal=k=v");
            return secured.reviews("/secured");
        }, reviews -> !reviews.isEmpty());
        kubectl.ok("create", "secret", "generic", "checked", "--from-literal=k=v");
        List<JsonNode> reviews = secured.reviews("/secured");
        assertEquals("checked", reviews.get(reviews.size() - 1).path("request").path("name").asText());
        kubectl.ok("delete", "validatingwebhookconfiguration", "secured");
    }

    /** The labels of a configmap created now, as stored. */
    private JsonNode createdLabels(String name) throws Exception {
        Result r = kubectl.run("create", "configmap", name, "-o", "json");
        return r.exitCode() != 0 ? JSON.createObjectNode() : JSON.readTree(r.stdout()).path("metadata").path("labels");
    }

    private static String configMap(String name, String label) {
        return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\n  labels: {" + label + "}\n";
    }

    private void apply(String file, String yaml) throws Exception {
        kubectl.ok("apply", "-f", manifest(file, yaml).toString());
    }

    private Path manifest(String file, String yaml) throws Exception {
        Path p = work.resolve(file);
        Files.writeString(p, yaml);
        return p;
    }
}
