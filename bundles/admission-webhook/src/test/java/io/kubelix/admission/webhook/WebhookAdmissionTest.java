package io.kubelix.admission.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.Operation;
import io.kubelix.api.admission.ReinvocationContext;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;
import io.kubelix.api.schema.GroupVersionKind;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.support.webhook.ServiceResolver;
import io.kubelix.testing.informer.FakeInformer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Both webhook plugins against a real HTTPS webhook, with configurations, namespaces and services in fake informers. */
class WebhookAdmissionTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final GroupVersionResource CONFIGMAPS = new GroupVersionResource("", "v1", "configmaps");

    private final FakeInformer mutatingConfigs = new FakeInformer(MutatingAdmissionWebhook.CONFIGURATIONS);
    private final FakeInformer validatingConfigs = new FakeInformer(ValidatingAdmissionWebhook.CONFIGURATIONS);
    private final FakeInformer namespaces = new FakeInformer(WebhookPlugin.NAMESPACES);
    private final FakeInformer services = new FakeInformer(WebhookPlugin.SERVICES);
    private final FakeInformer slices = new FakeInformer(WebhookPlugin.ENDPOINT_SLICES);
    private final List<String> warnings = new ArrayList<>();
    private TestWebhookServer server;
    private MutatingAdmissionWebhook mutating;
    private ValidatingAdmissionWebhook validating;

    @BeforeEach
    void setUp() throws Exception {
        server = new TestWebhookServer(TestWebhookServer::allow, "webhook.hooks.svc");
        namespaces.put(object("v1", "Namespace", null, "default", Map.of("env", "dev")));
        namespaces.put(object("v1", "Namespace", null, "prod", Map.of("env", "prod")));
        mutating = new MutatingAdmissionWebhook(plugin(mutatingConfigs));
        validating = new ValidatingAdmissionWebhook(plugin(validatingConfigs));
    }

    private WebhookPlugin plugin(FakeInformer configurations) {
        return new WebhookPlugin(new WebhookConfigurations(configurations), namespaces,
                new WebhookClient(new ServiceResolver(services.lister(), slices.lister()), JSON));
    }

    @AfterEach
    void tearDown() {
        server.close();
    }

    @Test
    void aMutatingWebhooksPatchChangesTheObjectAndTheReviewIsKubes() throws Exception {
        server.answer = r -> TestWebhookServer.patch(r, "[{\"op\":\"add\",\"path\":\"/metadata/labels/added\",\"value\":\"yes\"}]");
        mutatingConfigs.put(configuration("MutatingWebhookConfiguration", "labeler", hook("label.example.com", url("/mutate"))));
        AdmissionAttributes a = create(configMap("default", "c", Map.of("app", "web")), false);

        mutating.admit(a);

        assertEquals("yes", a.object().path("metadata").path("labels").path("added").asText(), a.object()::toString);
        JsonNode review = server.reviews.get(0);
        assertEquals("admission.k8s.io/v1", review.path("apiVersion").asText());
        assertEquals("AdmissionReview", review.path("kind").asText());
        JsonNode r = review.path("request");
        assertTrue(r.path("uid").asText().matches("[0-9a-f-]{36}"), r::toString);
        assertEquals("{\"group\":\"\",\"version\":\"v1\",\"kind\":\"ConfigMap\"}", r.path("kind").toString());
        assertEquals("{\"group\":\"\",\"version\":\"v1\",\"resource\":\"configmaps\"}", r.path("resource").toString());
        assertEquals(r.path("kind"), r.path("requestKind"));
        assertEquals(r.path("resource"), r.path("requestResource"));
        assertEquals("c", r.path("name").asText());
        assertEquals("default", r.path("namespace").asText());
        assertEquals("CREATE", r.path("operation").asText());
        assertEquals("{\"username\":\"jane\",\"uid\":\"42\",\"groups\":[\"devs\",\"system:authenticated\"]}",
                r.path("userInfo").toString());
        assertEquals("web", r.path("object").path("metadata").path("labels").path("app").asText());
        assertTrue(r.path("oldObject").isNull(), r::toString);
        assertEquals(false, r.path("dryRun").asBoolean(true));
        assertEquals("{\"kind\":\"CreateOptions\",\"apiVersion\":\"meta.k8s.io/v1\",\"fieldManager\":\"kubectl-create\"}",
                r.path("options").toString());
        assertTrue(r.path("subResource").isMissingNode(), r::toString);
    }

    @Test
    void anEquivalentVersionIsSentAsTheVersionTheRulesNameAndItsPatchComesBack() throws Exception {
        server.answer = r -> TestWebhookServer.patch(r, "[{\"op\":\"replace\",\"path\":\"/spec/size\",\"value\":5}]");
        MutatingAdmissionWebhook versioned = new MutatingAdmissionWebhook(new WebhookPlugin(
                new WebhookConfigurations(mutatingConfigs), namespaces,
                new WebhookClient(new ServiceResolver(services.lister(), slices.lister()), JSON), WebhookMetrics.NONE,
                new WidgetVersions()));
        mutatingConfigs.put(configuration("MutatingWebhookConfiguration", "sizer",
                hook("size.example.com", url("/mutate"), rule("CREATE", "example.com", "v2", "widgets", "*"))));
        ObjectNode widget = object("example.com/v1", "Widget", "default", "w", Map.of()).put("size", 3);
        AdmissionAttributes a = new AdmissionAttributes(Operation.CREATE, new GroupVersionKind("example.com", "v1", "Widget"),
                WidgetVersions.V1, "", "default", "w", widget, null, false, context(), null, new ReinvocationContext());

        versioned.admit(a);

        JsonNode r = server.reviews.get(0).path("request");
        assertEquals("{\"group\":\"example.com\",\"version\":\"v2\",\"kind\":\"Widget\"}", r.path("kind").toString());
        assertEquals("{\"group\":\"example.com\",\"version\":\"v2\",\"resource\":\"widgets\"}", r.path("resource").toString());
        assertEquals("{\"group\":\"example.com\",\"version\":\"v1\",\"kind\":\"Widget\"}", r.path("requestKind").toString());
        assertEquals("{\"group\":\"example.com\",\"version\":\"v1\",\"resource\":\"widgets\"}",
                r.path("requestResource").toString());
        assertEquals("example.com/v2", r.path("object").path("apiVersion").asText());
        assertEquals(3, r.path("object").path("spec").path("size").asInt(), r::toString);
        assertEquals("example.com/v1", a.object().path("apiVersion").asText());
        assertEquals(5, a.object().path("size").asInt(), "the patch, converted back to the request's version");

        // matchPolicy Exact: only the version the rules name
        ObjectNode exact = hook("size.example.com", url("/mutate"), rule("CREATE", "example.com", "v2", "widgets", "*"));
        exact.put("matchPolicy", "Exact");
        mutatingConfigs.put(configuration("MutatingWebhookConfiguration", "sizer", exact));
        versioned.admit(new AdmissionAttributes(Operation.CREATE, new GroupVersionKind("example.com", "v1", "Widget"),
                WidgetVersions.V1, "", "default", "w", widget, null, false, context(), null, new ReinvocationContext()));
        assertEquals(1, server.reviews.size());
    }

    @Test
    void aDenialIsTheWebhooksCodeWithKubesMessageAndItsWarningsReachTheClient() throws Exception {
        server.answer = r -> {
            ObjectNode d = TestWebhookServer.deny(r, 403, "configmaps must not say no");
            d.putArray("warnings").add("think again");
            return d;
        };
        validatingConfigs.put(configuration("ValidatingWebhookConfiguration", "policy", hook("deny.example.com", url("/validate"))));

        StatusException e = assertThrows(StatusException.class,
                () -> validating.validate(create(configMap("default", "c", Map.of()), false)));

        assertEquals(403, e.code());
        assertEquals(StatusReason.UNKNOWN, e.reason());
        assertEquals("admission webhook \"deny.example.com\" denied the request: configmaps must not say no", e.getMessage());
        assertEquals(List.of("think again"), warnings);
    }

    @Test
    void callsAreCountedInKubesWebhookMetrics() throws Exception {
        RecordingRegistry registry = new RecordingRegistry();
        ValidatingAdmissionWebhook measured = new ValidatingAdmissionWebhook(new WebhookPlugin(
                new WebhookConfigurations(validatingConfigs), namespaces,
                new WebhookClient(new ServiceResolver(services.lister(), slices.lister()), JSON),
                new WebhookMetrics(registry)));
        validatingConfigs.put(configuration("ValidatingWebhookConfiguration", "policy", hook("deny.example.com", url("/validate"))));

        measured.validate(create(configMap("default", "a", Map.of()), false));
        server.answer = r -> TestWebhookServer.deny(r, 403, "no");
        assertThrows(StatusException.class, () -> measured.validate(create(configMap("default", "b", Map.of()), false)));

        assertEquals(Map.of("deny.example.com,validate,CREATE,200,false", 1.0, "deny.example.com,validate,CREATE,403,true", 1.0),
                registry.values.get("apiserver_admission_webhook_request"));
        assertEquals(Map.of("deny.example.com,validate,CREATE,no_error,403", 1.0),
                registry.values.get("apiserver_admission_webhook_rejection_count"));
        assertEquals(Map.of("deny.example.com,validate,CREATE,false", 1.0, "deny.example.com,validate,CREATE,true", 1.0),
                registry.values.get("apiserver_admission_webhook_admission_duration_seconds"), "one observation each");
    }

    /** Counts what is recorded, by metric and comma-joined label values (a histogram counts observations). */
    private static final class RecordingRegistry implements io.kubelix.api.metrics.MetricsRegistry {
        final Map<String, Map<String, Double>> values = new java.util.concurrent.ConcurrentHashMap<>();

        private void add(String name, double amount, String... labels) {
            values.computeIfAbsent(name, n -> new java.util.concurrent.ConcurrentHashMap<>())
                    .merge(String.join(",", labels), amount, Double::sum);
        }

        @Override
        public io.kubelix.api.metrics.Counter counter(String name, String help, List<String> labelNames) {
            return (amount, labels) -> add(name, amount, labels);
        }

        @Override
        public io.kubelix.api.metrics.Gauge gauge(String name, String help, List<String> labelNames) {
            return new io.kubelix.api.metrics.Gauge() {
                @Override
                public void set(double value, String... labels) {
                    throw new UnsupportedOperationException("kube's webhook counts only go up");
                }

                @Override
                public void add(double delta, String... labels) {
                    RecordingRegistry.this.add(name, delta, labels);
                }
            };
        }

        @Override
        public io.kubelix.api.metrics.Histogram histogram(String name, String help, List<Double> buckets,
                                                          List<String> labelNames) {
            return (value, labels) -> add(name, 1, labels);
        }
    }

    @Test
    void aDenialWithoutMessageOrCodeIsA400WithoutExplanation() throws Exception {
        server.answer = r -> {
            ObjectNode d = TestWebhookServer.allow(r);
            d.put("allowed", false);
            return d;
        };
        validatingConfigs.put(configuration("ValidatingWebhookConfiguration", "policy", hook("deny.example.com", url("/v"))));

        StatusException e = assertThrows(StatusException.class,
                () -> validating.validate(create(configMap("default", "c", Map.of()), false)));

        assertEquals(400, e.code());
        assertEquals("admission webhook \"deny.example.com\" denied the request without explanation", e.getMessage());
    }

    @Test
    void aWebhookThatCannotBeReachedFailsTheRequestOrNotAsItsFailurePolicySays() throws Exception {
        String url = url("/validate");
        server.close();
        ObjectNode failing = hook("fail.example.com", url);
        validatingConfigs.put(configuration("ValidatingWebhookConfiguration", "a", failing));

        StatusException e = assertThrows(StatusException.class,
                () -> validating.validate(create(configMap("default", "c", Map.of()), false)));
        assertEquals(500, e.code());
        assertEquals(StatusReason.INTERNAL_ERROR, e.reason());
        assertTrue(e.getMessage().startsWith("Internal error occurred: failed calling webhook \"fail.example.com\": "
                + "failed to call webhook: Post \"" + url + "/fail.example.com?timeout=10s\": dial tcp 127.0.0.1:"), e.getMessage());

        failing.put("failurePolicy", "Ignore");
        validatingConfigs.put(configuration("ValidatingWebhookConfiguration", "a", failing));
        validating.validate(create(configMap("default", "c", Map.of()), false));
    }

    @Test
    void aWebhookWhoseCertificateTheCaBundleDoesNotVouchForIsNotTrusted() throws Exception {
        try (TestWebhookServer other = new TestWebhookServer(TestWebhookServer::allow)) {
            ObjectNode h = hook("tls.example.com", url("/v"));
            h.with("clientConfig").put("caBundle", other.caBundle);
            validatingConfigs.put(configuration("ValidatingWebhookConfiguration", "a", h));

            StatusException e = assertThrows(StatusException.class,
                    () -> validating.validate(create(configMap("default", "c", Map.of()), false)));
            assertTrue(e.getMessage().contains("tls: failed to verify certificate"), e.getMessage());
            assertTrue(server.reviews.isEmpty());
        }
    }

    @Test
    void rulesMatchOperationsGroupsVersionsResourcesSubresourcesAndScope() throws Exception {
        validatingConfigs.put(configuration("ValidatingWebhookConfiguration", "a",
                hook("updates.example.com", url("/v"), rule("UPDATE", "", "v1", "configmaps", "*")),
                hook("secrets.example.com", url("/v"), rule("*", "", "*", "secrets", "*")),
                hook("status.example.com", url("/v"), rule("*", "*", "*", "*/status", "*")),
                hook("cluster.example.com", url("/v"), rule("CREATE", "*", "*", "*", "Cluster")),
                hook("namespaced.example.com", url("/v"), rule("CREATE", "", "v1", "configmaps", "Namespaced"))));

        validating.validate(create(configMap("default", "c", Map.of()), false));

        assertEquals(List.of("namespaced.example.com"), calledWebhooks());
    }

    @Test
    void selectorsChooseByTheNamespacesLabelsAndTheObjectsOldOrNew() throws Exception {
        ObjectNode prodOnly = hook("prod.example.com", url("/v"));
        prodOnly.putObject("namespaceSelector").putObject("matchLabels").put("env", "prod");
        ObjectNode labelled = hook("labelled.example.com", url("/v"));
        labelled.putObject("objectSelector").putObject("matchLabels").put("watched", "true");
        validatingConfigs.put(configuration("ValidatingWebhookConfiguration", "a", prodOnly, labelled));

        validating.validate(create(configMap("default", "c", Map.of()), false));
        assertEquals(List.of(), calledWebhooks());

        validating.validate(create(configMap("prod", "c", Map.of()), false));
        assertEquals(List.of("prod.example.com"), calledWebhooks());

        server.reviews.clear();
        ObjectNode old = configMap("default", "c", Map.of("watched", "true"));
        validating.validate(new AdmissionAttributes(Operation.DELETE, kind(), CONFIGMAPS, "", "default", "c", null, old,
                false, context(), null, null));
        assertEquals(List.of("labelled.example.com"), calledWebhooks());

        StatusException e = assertThrows(StatusException.class,
                () -> validating.validate(create(configMap("missing", "c", Map.of()), false)));
        assertEquals(404, e.code());
        assertEquals("namespaces \"missing\" not found", e.getMessage());
    }

    @Test
    void matchConditionsInCelChooseTheWebhooksAndAnErrorFollowsTheFailurePolicy() throws Exception {
        ObjectNode labelled = hook("labelled.example.com", url("/v"));
        labelled.putArray("matchConditions").addObject().put("name", "labelled")
                .put("expression", "has(object.metadata.labels) && 'watched' in object.metadata.labels");
        ObjectNode notSystem = hook("not-system.example.com", url("/v"));
        notSystem.putArray("matchConditions").addObject().put("name", "not-system")
                .put("expression", "!request.userInfo.username.startsWith('system:')");
        validatingConfigs.put(configuration("ValidatingWebhookConfiguration", "a", labelled, notSystem));

        validating.validate(create(configMap("default", "c", Map.of()), false));
        assertEquals(List.of("not-system.example.com"), calledWebhooks());
        server.reviews.clear();
        validating.validate(create(configMap("default", "c", Map.of("watched", "true")), false));
        // Validating webhooks are called in parallel, as kube calls them: which review arrives first is not fixed.
        assertEquals(List.of("labelled.example.com", "not-system.example.com"), calledWebhooks().stream().sorted().toList());

        ObjectNode erring = hook("erring.example.com", url("/v"));
        erring.putArray("matchConditions").addObject().put("name", "spec").put("expression", "object.spec.x == 1");
        validatingConfigs.put(configuration("ValidatingWebhookConfiguration", "a", erring));
        StatusException e = assertThrows(StatusException.class,
                () -> validating.validate(create(configMap("default", "c", Map.of()), false)));
        assertEquals(403, e.code());
        assertEquals("configmaps \"c\" is forbidden: failed calling webhook \"erring.example.com\": "
                + "expression 'object.spec.x == 1' resulted in error: no such key: spec", e.getMessage());
        erring.put("failurePolicy", "Ignore");
        validatingConfigs.put(configuration("ValidatingWebhookConfiguration", "a", erring));
        server.reviews.clear();
        validating.validate(create(configMap("default", "c", Map.of()), false));
        assertEquals(List.of(), calledWebhooks());
    }

    @Test
    void aDryRunIsRefusedForWebhooksWithSideEffectsAndSentToTheOthers() throws Exception {
        ObjectNode some = hook("some.example.com", url("/v"));
        some.put("sideEffects", "Some");
        validatingConfigs.put(configuration("ValidatingWebhookConfiguration", "a", some));

        StatusException e = assertThrows(StatusException.class,
                () -> validating.validate(create(configMap("default", "c", Map.of()), true)));
        assertEquals(400, e.code());
        assertEquals("admission webhook \"some.example.com\" does not support dry run", e.getMessage());
        assertTrue(server.reviews.isEmpty());

        some.put("sideEffects", "NoneOnDryRun");
        validatingConfigs.put(configuration("ValidatingWebhookConfiguration", "a", some));
        validating.validate(create(configMap("default", "c", Map.of()), true));
        assertEquals(true, server.reviews.get(0).path("request").path("dryRun").asBoolean());
    }

    @Test
    void aServiceIsReachedThroughAReadyEndpointOfItsSlicesAndNamedAsKubeNamesIt() throws Exception {
        ObjectNode svc = object("v1", "Service", "hooks", "webhook", Map.of());
        svc.putObject("spec").putArray("ports").addObject().put("name", "https").put("port", 443);
        services.put(svc);
        ObjectNode slice = object("discovery.k8s.io/v1", "EndpointSlice", "hooks", "webhook-abc",
                Map.of(ServiceResolver.SERVICE_NAME_LABEL, "webhook"));
        slice.putArray("ports").addObject().put("name", "https").put("port", server.port());
        ObjectNode notReady = slice.putArray("endpoints").addObject();
        notReady.putArray("addresses").add("10.9.9.9");
        notReady.putObject("conditions").put("ready", false);
        slice.withArray("endpoints").addObject().putArray("addresses").add("127.0.0.1");
        slices.put(slice);
        ObjectNode h = hook("svc.example.com", null);
        h.with("clientConfig").remove("url");
        h.with("clientConfig").putObject("service").put("namespace", "hooks").put("name", "webhook")
                .put("port", 443).put("path", "/check");
        validatingConfigs.put(configuration("ValidatingWebhookConfiguration", "a", h));

        for (int i = 0; i < 3; i++) {
            validating.validate(create(configMap("default", "c", Map.of()), false));
        }
        assertEquals(3, server.reviews.size());

        h.with("clientConfig").with("service").put("port", 8443);
        validatingConfigs.put(configuration("ValidatingWebhookConfiguration", "a", h));
        StatusException e = assertThrows(StatusException.class,
                () -> validating.validate(create(configMap("default", "c", Map.of()), false)));
        assertEquals("Internal error occurred: failed calling webhook \"svc.example.com\": failed to call webhook: Post "
                + "\"https://webhook.hooks.svc:8443/check?timeout=10s\": no service port 8443 found for service \"webhook\"",
                e.getMessage());
    }

    @Test
    void aWebhookAskingForReinvocationIsCalledAgainWhenALaterOneChangedTheObject() throws Exception {
        server.answer = r -> {
            String label = r.path("_webhook").asText().startsWith("first") ? "first" : "second";
            return r.path("request").path("object").path("metadata").path("labels").has(label)
                    ? TestWebhookServer.allow(r)
                    : TestWebhookServer.patch(r, "[{\"op\":\"add\",\"path\":\"/metadata/labels/" + label
                            + "\",\"value\":\"x\"}]");
        };
        ObjectNode first = hook("first.example.com", url("/first"));
        first.put("reinvocationPolicy", "IfNeeded");
        ObjectNode second = hook("second.example.com", url("/second"));
        mutatingConfigs.put(configuration("MutatingWebhookConfiguration", "a", first, second));
        AdmissionAttributes a = create(configMap("default", "c", Map.of("app", "web")), false);

        mutating.admit(a);
        assertTrue(a.reinvocation().shouldReinvoke());
        a.reinvocation().setIsReinvoke();
        mutating.admit(a);

        assertEquals(List.of("first.example.com", "second.example.com", "first.example.com"), calledWebhooks());
        assertEquals("{\"app\":\"web\",\"first\":\"x\",\"second\":\"x\"}", a.object().path("metadata").path("labels").toString());
    }

    @Test
    void validatingWebhooksMayNotPatch() throws Exception {
        server.answer = r -> TestWebhookServer.patch(r, "[]");
        validatingConfigs.put(configuration("ValidatingWebhookConfiguration", "a", hook("patcher.example.com", url("/v"))));

        StatusException e = assertThrows(StatusException.class,
                () -> validating.validate(create(configMap("default", "c", Map.of()), false)));
        assertEquals("Internal error occurred: failed calling webhook \"patcher.example.com\": received invalid webhook "
                + "response: validating webhook may not return a patch", e.getMessage());
    }

    @Test
    void writesOfAdmissionConfigurationsAreNeverSentToWebhooks() throws Exception {
        validatingConfigs.put(configuration("ValidatingWebhookConfiguration", "a", hook("all.example.com", url("/v"),
                rule("*", "*", "*", "*", "*"))));
        GroupVersionResource vwc = ValidatingAdmissionWebhook.CONFIGURATIONS;
        ObjectNode obj = object("admissionregistration.k8s.io/v1", "ValidatingWebhookConfiguration", null, "x", Map.of());

        validating.validate(new AdmissionAttributes(Operation.CREATE, new GroupVersionKind(vwc.group(), "v1",
                "ValidatingWebhookConfiguration"), vwc, "", "", "x", obj, null, false, context(), null, null));

        assertTrue(server.reviews.isEmpty());
    }

    private List<String> calledWebhooks() {
        List<String> names = new ArrayList<>();
        for (JsonNode review : server.reviews) {
            names.add(review.path("_webhook").asText());
        }
        return names;
    }

    private String url(String path) {
        return server.url(path);
    }

    private ObjectNode hook(String name, String url) {
        return hook(name, url, rule("CREATE,UPDATE,DELETE", "", "v1", "configmaps", "*"));
    }

    private ObjectNode hook(String name, String url, ObjectNode rule) {
        ObjectNode h = JSON.createObjectNode();
        h.put("name", name);
        ObjectNode cc = h.putObject("clientConfig");
        if (url != null) {
            // The test server tells webhooks apart by their path's query: ?timeout is added after it.
            cc.put("url", url + "/" + name);
        }
        cc.put("caBundle", server.caBundle);
        h.putArray("rules").add(rule);
        h.put("failurePolicy", "Fail").put("matchPolicy", "Equivalent").put("sideEffects", "None")
                .put("timeoutSeconds", 10).putArray("admissionReviewVersions").add("v1");
        h.putObject("namespaceSelector");
        h.putObject("objectSelector");
        return h;
    }

    private static ObjectNode rule(String operations, String group, String version, String resource, String scope) {
        ObjectNode r = JSON.createObjectNode();
        for (String op : operations.split(",")) {
            r.withArray("operations").add(op);
        }
        r.putArray("apiGroups").add(group);
        r.putArray("apiVersions").add(version);
        r.putArray("resources").add(resource);
        r.put("scope", scope);
        return r;
    }

    private static ObjectNode configuration(String kind, String name, ObjectNode... hooks) {
        ObjectNode c = object("admissionregistration.k8s.io/v1", kind, null, name, Map.of());
        for (ObjectNode h : hooks) {
            c.withArray("webhooks").add(h);
        }
        return c;
    }

    private static ObjectNode configMap(String namespace, String name, Map<String, String> labels) {
        return object("v1", "ConfigMap", namespace, name, labels);
    }

    private static ObjectNode object(String apiVersion, String kind, String namespace, String name, Map<String, String> labels) {
        ObjectNode o = JSON.createObjectNode();
        o.put("apiVersion", apiVersion).put("kind", kind);
        ObjectNode meta = o.putObject("metadata");
        meta.put("name", name);
        if (namespace != null) {
            meta.put("namespace", namespace);
        }
        if (!labels.isEmpty()) {
            ObjectNode l = meta.putObject("labels");
            labels.forEach(l::put);
        }
        return o;
    }

    private static GroupVersionKind kind() {
        return new GroupVersionKind("", "v1", "ConfigMap");
    }

    private AdmissionAttributes create(ObjectNode obj, boolean dryRun) {
        ObjectNode options = JSON.createObjectNode();
        options.put("kind", "CreateOptions").put("apiVersion", "meta.k8s.io/v1").put("fieldManager", "kubectl-create");
        String ns = obj.path("metadata").path("namespace").asText();
        return new AdmissionAttributes(Operation.CREATE, kind(), CONFIGMAPS, "", ns,
                obj.path("metadata").path("name").asText(), obj, null, dryRun, context(), options, new ReinvocationContext());
    }

    private RequestContext context() {
        UserInfo jane = new UserInfo("jane", "42", List.of("devs", "system:authenticated"), Map.of());
        return new RequestContext() {
            @Override
            public UserInfo user() {
                return jane;
            }

            @Override
            public RequestInfo requestInfo() {
                return null;
            }

            @Override
            public String namespace() {
                return "default";
            }

            @Override
            public void addWarning(String message) {
                warnings.add(message);
            }
        };
    }
}
