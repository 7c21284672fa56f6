package io.kubelix.admission.webhook;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.Operation;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupVersionKind;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.support.webhook.AuthenticationInfoResolver;
import io.kubelix.support.webhook.ServiceResolver;
import io.kubelix.testing.informer.FakeInformer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A webhook that requires a client certificate and a bearer token is called with those the
 * kubeconfig of the plugin's {@code kubeConfigFile} gives its host and port, as kube calls it.
 */
class WebhookCredentialsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final GroupVersionResource CONFIGMAPS = new GroupVersionResource("", "v1", "configmaps");

    @TempDir
    Path dir;
    private TestWebhookServer server;
    private final FakeInformer configurations = new FakeInformer(ValidatingAdmissionWebhook.CONFIGURATIONS);
    private final FakeInformer namespaces = new FakeInformer(WebhookPlugin.NAMESPACES);

    @BeforeEach
    void setUp() throws Exception {
        server = TestWebhookServer.requiringClientCertificates(TestWebhookServer::allow);
        namespaces.put(json("{'metadata':{'name':'default'}}"));
        configurations.put(json("{'metadata':{'name':'secured'},'webhooks':[{'name':'secured.example.com',"
                + "'clientConfig':{'url':'" + server.url("/secured") + "','caBundle':'" + server.caBundle + "'},"
                + "'rules':[{'operations':['CREATE'],'apiGroups':[''],'apiVersions':['v1'],'resources':['configmaps']}],"
                + "'failurePolicy':'Fail','sideEffects':'None','admissionReviewVersions':['v1']}]}"));
    }

    @AfterEach
    void tearDown() {
        server.close();
    }

    private static ObjectNode json(String s) throws Exception {
        return (ObjectNode) JSON.readTree(s.replace('\'', '"'));
    }

    private ValidatingAdmissionWebhook plugin(AuthenticationInfoResolver credentials) {
        FakeInformer services = new FakeInformer(WebhookPlugin.SERVICES);
        FakeInformer slices = new FakeInformer(WebhookPlugin.ENDPOINT_SLICES);
        return new ValidatingAdmissionWebhook(new WebhookPlugin(new WebhookConfigurations(configurations), namespaces,
                new WebhookClient(new ServiceResolver(services.lister(), slices.lister()), JSON, credentials)));
    }

    private static AdmissionAttributes create() throws Exception {
        return new AdmissionAttributes(Operation.CREATE, new GroupVersionKind("", "v1", "ConfigMap"), CONFIGMAPS, "",
                "default", "c", json("{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'c','namespace':'default'}}"),
                null, false, RequestContext.system("default"));
    }

    /** The admission configuration file naming a kubeconfig whose user for the server has a certificate and a token. */
    private Path admissionConfiguration() throws Exception {
        Path kubeconfig = dir.resolve("webhook.kubeconfig");
        Files.writeString(kubeconfig, "apiVersion: v1\nkind: Config\nusers:\n"
                + "- name: 'other.example.com'\n  user:\n    token: wrong\n"
                + "- name: '127.0.0.1:" + server.port() + "'\n  user:\n    token: s3cret\n"
                + "    client-certificate-data: " + base64(server.clientCertPem) + "\n"
                + "    client-key-data: " + base64(server.clientKeyPem) + "\n");
        return Files.writeString(dir.resolve("admission.yaml"), "apiVersion: apiserver.config.k8s.io/v1\n"
                + "kind: AdmissionConfiguration\nplugins:\n- name: ValidatingAdmissionWebhook\n  configuration:\n"
                + "    apiVersion: apiserver.config.k8s.io/v1\n    kind: WebhookAdmissionConfiguration\n"
                + "    kubeConfigFile: " + kubeconfig.toAbsolutePath() + "\n");
    }

    private static String base64(String pem) {
        return Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void theKubeconfigUserOfTheWebhooksHostAndPortGivesItsCertificateAndToken() throws Exception {
        AuthenticationInfoResolver credentials = WebhookAdmissionConfiguration.credentials(
                admissionConfiguration().toString(), ValidatingAdmissionWebhook.PLUGIN_NAME);

        plugin(credentials).validate(create());

        assertEquals(1, server.reviews.size());
        assertEquals(List.of("Bearer s3cret"), server.authorizations);
        assertEquals(AuthenticationInfoResolver.NONE, WebhookAdmissionConfiguration.credentials(
                admissionConfiguration().toString(), MutatingAdmissionWebhook.PLUGIN_NAME), "configured per plugin");
    }

    @Test
    void withoutTheClientCertificateTheCallFailsAsAnyFailedCall() throws Exception {
        StatusException e = assertThrows(StatusException.class, () -> plugin(AuthenticationInfoResolver.NONE).validate(create()));

        assertEquals(500, e.code());
        assertTrue(e.getMessage().startsWith("Internal error occurred: failed calling webhook \"secured.example.com\": "
                + "failed to call webhook: Post \"" + server.url("/secured") + "?timeout=10s\""), e.getMessage());
        assertTrue(server.reviews.isEmpty());
    }

    @Test
    void theKubeConfigFileMustBeAnAbsolutePathOfAWebhookAdmissionConfiguration() throws Exception {
        IllegalArgumentException relative = assertThrows(IllegalArgumentException.class, () -> WebhookAdmissionConfiguration.of(
                json("{'apiVersion':'apiserver.config.k8s.io/v1','kind':'WebhookAdmissionConfiguration','kubeConfigFile':'k'}"),
                JSON));
        assertEquals("kubeConfigFile: Invalid value: \"k\": must be an absolute file path", relative.getMessage());
        assertThrows(IllegalArgumentException.class, () -> WebhookAdmissionConfiguration.of(
                json("{'apiVersion':'v1','kind':'Config','kubeConfigFile':'/k'}"), JSON));
    }
}
