package io.kubelix.runtime.codec.protobuf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.Runtime;
import io.kubernetes.client.proto.V1;
import io.kubernetes.client.proto.V1Networking;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bodies as client-go's protobuf serializer writes them: "k8s\0" then a runtime.Unknown. */
class ProtobufCodecTest {
    private static final long GO_ZERO_TIME = -62135596800L;

    private final ProtobufCodec codec = new ProtobufCodec();

    @Test
    void configMap() {
        V1.ConfigMap cm = V1.ConfigMap.newBuilder()
                .setMetadata(goObjectMeta("settings", "default")
                        .putLabels("app", "web")
                        .putAnnotations("note", "x"))
                .putData("a.txt", "hello")
                .putData("empty", "")
                .putBinaryData("b.bin", ByteString.copyFrom(new byte[] {0, 1, 2, (byte) 0xff}))
                .build();

        ObjectNode obj = codec.decode(body("v1", "ConfigMap", cm.toByteArray()));

        assertEquals("v1", obj.path("apiVersion").asText());
        assertEquals("ConfigMap", obj.path("kind").asText());
        assertEquals("settings", obj.path("metadata").path("name").asText());
        assertEquals("default", obj.path("metadata").path("namespace").asText());
        assertEquals("web", obj.path("metadata").path("labels").path("app").asText());
        assertEquals("x", obj.path("metadata").path("annotations").path("note").asText());
        assertEquals("hello", obj.path("data").path("a.txt").asText());
        assertTrue(obj.path("data").has("empty"), "an empty map value is a value, not an omitted field");
        assertEquals("", obj.path("data").path("empty").asText());
        assertEquals(Base64.getEncoder().encodeToString(new byte[] {0, 1, 2, (byte) 0xff}),
                obj.path("binaryData").path("b.bin").asText());
        assertFalse(obj.has("immutable"), "an unset *bool stays unset");
    }

    @Test
    void goZeroValuesOfObjectMetaAreOmitted() {
        // Go writes every non-pointer field: empty strings, generation 0 and the zero Time.
        V1.ConfigMap cm = V1.ConfigMap.newBuilder().setMetadata(goObjectMeta("a", "default")).build();

        ObjectNode obj = codec.decode(body("v1", "ConfigMap", cm.toByteArray()));

        JsonNode meta = obj.path("metadata");
        assertEquals(2, meta.size(), meta.toString());
        assertFalse(meta.has("creationTimestamp"));
        assertFalse(meta.has("generateName"));
        assertFalse(meta.has("generation"));
        assertNoEmptyStrings(obj);
    }

    @Test
    void zeroTimeWrittenAsSecondsIsOmittedToo() {
        Meta.ObjectMeta meta = goObjectMeta("a", "default")
                .setCreationTimestamp(Meta.Time.newBuilder().setSeconds(GO_ZERO_TIME).setNanos(0))
                .build();

        ObjectNode obj = codec.decode(body("v1", "ConfigMap", V1.ConfigMap.newBuilder().setMetadata(meta).build()
                .toByteArray()));

        assertFalse(obj.path("metadata").has("creationTimestamp"));
    }

    @Test
    void timeIsRfc3339() {
        Meta.ObjectMeta meta = goObjectMeta("a", "default")
                .setCreationTimestamp(Meta.Time.newBuilder().setSeconds(1_700_000_000L).setNanos(0))
                .setGeneration(3)
                .build();

        ObjectNode obj = codec.decode(body("v1", "ConfigMap", V1.ConfigMap.newBuilder().setMetadata(meta).build()
                .toByteArray()));

        assertEquals("2023-11-14T22:13:20Z", obj.path("metadata").path("creationTimestamp").asText());
        assertEquals(3, obj.path("metadata").path("generation").asLong());
    }

    @Test
    void secretDataIsBase64() {
        byte[] password = "s3cr3t\n".getBytes(StandardCharsets.UTF_8);
        V1.Secret secret = V1.Secret.newBuilder()
                .setMetadata(goObjectMeta("creds", "default"))
                .putData("password", ByteString.copyFrom(password))
                .setType("Opaque")
                .build();

        ObjectNode obj = codec.decode(body("v1", "Secret", secret.toByteArray()));

        assertEquals("Secret", obj.path("kind").asText());
        assertEquals(Base64.getEncoder().encodeToString(password), obj.path("data").path("password").asText());
        assertEquals("Opaque", obj.path("type").asText());
    }

    @Test
    void groupKindsAreFoundByTheirGroup() {
        io.kubernetes.client.proto.V1Apps.Deployment d = io.kubernetes.client.proto.V1Apps.Deployment.newBuilder()
                .setMetadata(goObjectMeta("web", "default"))
                .setSpec(io.kubernetes.client.proto.V1Apps.DeploymentSpec.newBuilder().setReplicas(3))
                .build();

        ObjectNode obj = codec.decode(body("apps/v1", "Deployment", d.toByteArray()));

        assertEquals("apps/v1", obj.path("apiVersion").asText());
        assertEquals(3, obj.path("spec").path("replicas").asInt());
    }

    @Test
    void bodyWithoutTheMagicIsBadRequest() {
        byte[] raw = unknown("v1", "ConfigMap", V1.ConfigMap.getDefaultInstance().toByteArray());

        StatusException e = assertThrows(StatusException.class, () -> codec.decode(raw));

        assertEquals(400, e.code());
        assertEquals(StatusReason.BAD_REQUEST, e.reason());
        assertEquals(400, assertThrows(StatusException.class, () -> codec.decode(new byte[] {'k', '8'})).code());
        assertEquals(400, assertThrows(StatusException.class,
                () -> codec.decode("{\"kind\":\"ConfigMap\"}".getBytes(StandardCharsets.UTF_8))).code());
    }

    @Test
    void unknownKindIsUnsupportedMediaType() {
        StatusException e = assertThrows(StatusException.class,
                () -> codec.decode(body("widgets.example.com/v1", "Widget", new byte[0])));

        assertEquals(415, e.code());
        assertEquals(StatusReason.UNSUPPORTED_MEDIA_TYPE, e.reason());
    }

    @Test
    void envelopeWithoutKindIsBadRequest() {
        assertEquals(400, assertThrows(StatusException.class, () -> codec.decode(body("v1", "", new byte[0]))).code());
    }

    @Test
    void truncatedMessageIsBadRequest() {
        byte[] cm = V1.ConfigMap.newBuilder().setMetadata(goObjectMeta("a", "default")).build().toByteArray();
        byte[] truncated = java.util.Arrays.copyOf(cm, cm.length - 3);

        assertEquals(400, assertThrows(StatusException.class,
                () -> codec.decode(body("v1", "ConfigMap", truncated))).code());
    }

    /** ObjectMeta as Go marshals it: every string and number field written, Time zero. */
    @Test
    void inlineEmbeddedStructsSitInTheirOuterObject() {
        // what kubectl create ingress web --rule=foo.com/=svc:http sends
        V1Networking.Ingress ing = V1Networking.Ingress.newBuilder()
                .setMetadata(goObjectMeta("web", "default"))
                .setSpec(V1Networking.IngressSpec.newBuilder().addRules(V1Networking.IngressRule.newBuilder()
                        .setHost("foo.com")
                        .setIngressRuleValue(V1Networking.IngressRuleValue.newBuilder().setHttp(
                                V1Networking.HTTPIngressRuleValue.newBuilder().addPaths(V1Networking.HTTPIngressPath.newBuilder()
                                        .setPath("/").setPathType("Prefix")
                                        .setBackend(V1Networking.IngressBackend.newBuilder().setService(
                                                V1Networking.IngressServiceBackend.newBuilder().setName("svc").setPort(
                                                        V1Networking.ServiceBackendPort.newBuilder().setName("http")
                                                                .setNumber(0)))))))))
                .build();

        JsonNode rule = codec.decode(body("networking.k8s.io/v1", "Ingress", ing.toByteArray())).path("spec").path("rules").path(0);

        assertEquals("foo.com", rule.path("host").asText(), rule::toString);
        assertFalse(rule.has("ingressRuleValue"), rule::toString);
        JsonNode port = rule.path("http").path("paths").path(0).path("backend").path("service").path("port");
        assertEquals("{\"name\":\"http\"}", port.toString(), "an omitempty port number of 0 is unset");
    }

    private static Meta.ObjectMeta.Builder goObjectMeta(String name, String namespace) {
        return Meta.ObjectMeta.newBuilder()
                .setName(name)
                .setGenerateName("")
                .setNamespace(namespace)
                .setSelfLink("")
                .setUid("")
                .setResourceVersion("")
                .setGeneration(0)
                .setCreationTimestamp(Meta.Time.newBuilder().build());
    }

    private static byte[] body(String apiVersion, String kind, byte[] raw) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[] {'k', '8', 's', 0});
        out.writeBytes(unknown(apiVersion, kind, raw));
        return out.toByteArray();
    }

    private static byte[] unknown(String apiVersion, String kind, byte[] raw) {
        return Runtime.Unknown.newBuilder()
                .setTypeMeta(Runtime.TypeMeta.newBuilder().setApiVersion(apiVersion).setKind(kind))
                .setRaw(ByteString.copyFrom(raw))
                .setContentEncoding("")
                .setContentType("")
                .build()
                .toByteArray();
    }

    private static void assertNoEmptyStrings(JsonNode node) {
        if (node.isTextual()) {
            assertFalse(node.asText().isEmpty(), "an empty string was kept");
        }
        node.elements().forEachRemaining(ProtobufCodecTest::assertNoEmptyStrings);
    }
}
