package io.kubelix.runtime.codec.protobuf;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.Runtime;
import io.kubernetes.client.proto.V1;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Objects encoded in protobuf are read back by the decoder as the same JSON tree, and by the
 * Kubernetes Java client's generated messages with the special types in their Go form.
 */
class ProtobufEncoderTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final ProtobufCodec decoder = new ProtobufCodec();

    private static final String POD = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"web\",\"namespace\":"
            + "\"default\",\"uid\":\"u-1\",\"resourceVersion\":\"42\",\"creationTimestamp\":\"2024-05-01T10:00:00Z\","
            + "\"ownerReferences\":[{\"apiVersion\":\"apps/v1\",\"kind\":\"ReplicaSet\",\"name\":\"web-1\",\"uid\":\"u-0\","
            + "\"controller\":true}],\"managedFields\":[{\"manager\":\"kubectl\",\"operation\":\"Apply\",\"apiVersion\":\"v1\","
            + "\"time\":\"2024-05-01T10:00:00Z\",\"fieldsType\":\"FieldsV1\",\"fieldsV1\":{\"f:metadata\":{\"f:labels\":"
            + "{\"f:app\":{}}}}}]},\"spec\":{\"containers\":[{\"name\":\"app\",\"image\":\"nginx:1.27\",\"ports\":"
            + "[{\"containerPort\":80,\"protocol\":\"TCP\"}],\"resources\":{\"limits\":{\"cpu\":\"500m\",\"memory\":\"128Mi\"},"
            + "\"requests\":{\"cpu\":\"250m\"}},\"livenessProbe\":{\"httpGet\":{\"path\":\"/healthz\",\"port\":\"http\"},"
            + "\"initialDelaySeconds\":3},\"readinessProbe\":{\"tcpSocket\":{\"port\":8080}}}],\"volumes\":[{\"name\":\"cfg\","
            + "\"configMap\":{\"name\":\"settings\",\"defaultMode\":420}}],\"terminationGracePeriodSeconds\":30,"
            + "\"enableServiceLinks\":false},\"status\":{\"phase\":\"Running\",\"startTime\":\"2024-05-01T10:00:05Z\","
            + "\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\",\"lastTransitionTime\":\"2024-05-01T10:00:06Z\"}]}}";

    /** Objects of many built-in kinds, with each special type and an inline struct among them. */
    private static final List<String> FIXTURES = List.of(
            "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"settings\",\"namespace\":\"default\","
                    + "\"uid\":\"1b4c\",\"resourceVersion\":\"17\",\"creationTimestamp\":\"2024-05-01T10:00:00Z\","
                    + "\"labels\":{\"app\":\"web\"}},\"data\":{\"a.txt\":\"hello\",\"empty\":\"\"},"
                    + "\"binaryData\":{\"b\":\"AAEC/w==\"},\"immutable\":true}",
            "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"creds\",\"namespace\":\"default\"},"
                    + "\"data\":{\"password\":\"czNjcjN0Cg==\"},\"type\":\"Opaque\"}",
            POD,
            "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"web\",\"namespace\":\"default\"},"
                    + "\"spec\":{\"type\":\"ClusterIP\",\"clusterIP\":\"10.0.0.10\",\"clusterIPs\":[\"10.0.0.10\"],"
                    + "\"selector\":{\"app\":\"web\"},\"ports\":[{\"name\":\"http\",\"port\":80,\"targetPort\":\"http\","
                    + "\"protocol\":\"TCP\"},{\"name\":\"metrics\",\"port\":9090,\"targetPort\":9090,\"protocol\":\"TCP\"}]},"
                    + "\"status\":{\"loadBalancer\":{}}}",
            "{\"apiVersion\":\"v1\",\"kind\":\"Event\",\"metadata\":{\"name\":\"e1\",\"namespace\":\"default\"},"
                    + "\"involvedObject\":{\"kind\":\"Pod\",\"name\":\"web\"},\"reason\":\"Started\",\"count\":2,"
                    + "\"eventTime\":\"2024-05-01T10:00:00.123456Z\",\"firstTimestamp\":\"2024-05-01T10:00:00Z\"}",
            "{\"apiVersion\":\"v1\",\"kind\":\"PersistentVolume\",\"metadata\":{\"name\":\"pv1\"},\"spec\":{"
                    + "\"capacity\":{\"storage\":\"10Gi\"},\"accessModes\":[\"ReadWriteOnce\"],\"hostPath\":{\"path\":\"/data\"},"
                    + "\"persistentVolumeReclaimPolicy\":\"Retain\"}}",
            "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"web\",\"namespace\":\"default\","
                    + "\"generation\":3,\"deletionGracePeriodSeconds\":30},\"spec\":{\"replicas\":3,\"selector\":{\"matchLabels\":"
                    + "{\"app\":\"web\"}},\"strategy\":{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxSurge\":\"25%\","
                    + "\"maxUnavailable\":1}},\"template\":{\"metadata\":{\"labels\":{\"app\":\"web\"}},\"spec\":{"
                    + "\"containers\":[{\"name\":\"app\",\"image\":\"nginx\"}]}}},\"status\":{\"replicas\":3,"
                    + "\"conditions\":[{\"type\":\"Available\",\"status\":\"True\",\"lastUpdateTime\":\"2024-05-01T10:00:00Z\"}]}}",
            "{\"apiVersion\":\"batch/v1\",\"kind\":\"CronJob\",\"metadata\":{\"name\":\"nightly\",\"namespace\":\"default\"},"
                    + "\"spec\":{\"schedule\":\"0 3 * * *\",\"jobTemplate\":{\"spec\":{\"backoffLimit\":2,\"template\":{\"spec\":"
                    + "{\"restartPolicy\":\"Never\",\"containers\":[{\"name\":\"c\",\"image\":\"busybox\",\"command\":"
                    + "[\"sh\",\"-c\",\"date\"]}]}}}}}}",
            "{\"apiVersion\":\"networking.k8s.io/v1\",\"kind\":\"Ingress\",\"metadata\":{\"name\":\"web\",\"namespace\":\"default\"},"
                    + "\"spec\":{\"rules\":[{\"host\":\"foo.com\",\"http\":{\"paths\":[{\"path\":\"/\",\"pathType\":\"Prefix\","
                    + "\"backend\":{\"service\":{\"name\":\"svc\",\"port\":{\"number\":80}}}}]}}]}}",
            "{\"apiVersion\":\"networking.k8s.io/v1\",\"kind\":\"NetworkPolicy\",\"metadata\":{\"name\":\"deny\",\"namespace\":"
                    + "\"default\"},\"spec\":{\"podSelector\":{},\"ingress\":[{\"ports\":[{\"port\":\"http\",\"protocol\":\"TCP\"},"
                    + "{\"port\":53,\"endPort\":60}]}],\"policyTypes\":[\"Ingress\"]}}",
            "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"ClusterRole\",\"metadata\":{\"name\":\"reader\"},"
                    + "\"rules\":[{\"apiGroups\":[\"\"],\"resources\":[\"pods\"],\"verbs\":[\"get\",\"list\"]}]}",
            "{\"apiVersion\":\"policy/v1\",\"kind\":\"PodDisruptionBudget\",\"metadata\":{\"name\":\"pdb\",\"namespace\":\"default\"},"
                    + "\"spec\":{\"minAvailable\":\"50%\",\"selector\":{\"matchExpressions\":[{\"key\":\"app\",\"operator\":\"In\","
                    + "\"values\":[\"web\"]}]}}}",
            "{\"apiVersion\":\"autoscaling/v1\",\"kind\":\"HorizontalPodAutoscaler\",\"metadata\":{\"name\":\"web\","
                    + "\"namespace\":\"default\"},\"spec\":{\"scaleTargetRef\":{\"kind\":\"Deployment\",\"name\":\"web\"},"
                    + "\"minReplicas\":1,\"maxReplicas\":5,\"targetCPUUtilizationPercentage\":80}}",
            "{\"apiVersion\":\"storage.k8s.io/v1\",\"kind\":\"StorageClass\",\"metadata\":{\"name\":\"fast\"},"
                    + "\"provisioner\":\"example.com/disk\",\"parameters\":{\"type\":\"ssd\"},\"allowVolumeExpansion\":true}",
            "{\"apiVersion\":\"admissionregistration.k8s.io/v1\",\"kind\":\"ValidatingWebhookConfiguration\",\"metadata\":"
                    + "{\"name\":\"hook\"},\"webhooks\":[{\"name\":\"a.example.com\",\"clientConfig\":{\"caBundle\":\"AAEC\","
                    + "\"url\":\"https://a.example.com\"},\"sideEffects\":\"None\",\"admissionReviewVersions\":[\"v1\"],"
                    + "\"timeoutSeconds\":5}]}",
            "{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"TokenReview\",\"metadata\":{},\"spec\":{\"token\":\"t\"},"
                    + "\"status\":{\"authenticated\":true,\"user\":{\"username\":\"alice\",\"extra\":{\"scopes\":[\"a\",\"b\"]}}}}",
            "{\"apiVersion\":\"v1\",\"kind\":\"Status\",\"metadata\":{},\"status\":\"Failure\",\"message\":\"configmaps \\\"x\\\" "
                    + "not found\",\"reason\":\"NotFound\",\"details\":{\"name\":\"x\",\"kind\":\"configmaps\"},\"code\":404}");

    @Test
    void fixturesOfManyKindsDecodeToTheSameTree() throws Exception {
        for (String fixture : FIXTURES) {
            ObjectNode obj = (ObjectNode) JSON.readTree(fixture);

            ObjectNode decoded = decoder.decode(ProtobufEncoder.encode(obj.deepCopy()));

            // Compared as text read again: the decoder's numbers are of the field's width (a LongNode for an int64).
            assertEquals(withoutEmptyStrings(obj), JSON.readTree(decoded.toString()), obj.path("kind").asText());
        }
    }

    @Test
    void configMapIsReadByTheGeneratedMessage() throws Exception {
        byte[] body = ProtobufEncoder.encode((ObjectNode) JSON.readTree(FIXTURES.get(0)));

        Runtime.Unknown unknown = unknown(body);
        V1.ConfigMap cm = V1.ConfigMap.parseFrom(unknown.getRaw());

        assertEquals("v1", unknown.getTypeMeta().getApiVersion());
        assertEquals("ConfigMap", unknown.getTypeMeta().getKind());
        assertEquals("settings", cm.getMetadata().getName());
        assertEquals("17", cm.getMetadata().getResourceVersion());
        assertEquals(1714557600L, cm.getMetadata().getCreationTimestamp().getSeconds());
        assertEquals("web", cm.getMetadata().getLabelsMap().get("app"));
        assertEquals("hello", cm.getDataMap().get("a.txt"));
        assertEquals("", cm.getDataMap().get("empty"));
        assertArrayEquals(new byte[] {0, 1, 2, (byte) 0xff}, cm.getBinaryDataMap().get("b").toByteArray());
        assertTrue(cm.getImmutable());
    }

    @Test
    void podIsReadByTheGeneratedMessageWithQuantitiesTimesAndIntOrStrings() throws Exception {
        byte[] body = ProtobufEncoder.encode((ObjectNode) JSON.readTree(POD));

        V1.Pod pod = V1.Pod.parseFrom(unknown(body).getRaw());

        V1.Container c = pod.getSpec().getContainers(0);
        assertEquals("500m", c.getResources().getLimitsMap().get("cpu").getString());
        assertEquals("128Mi", c.getResources().getLimitsMap().get("memory").getString());
        assertEquals(1, c.getLivenessProbe().getHandler().getHttpGet().getPort().getType());
        assertEquals("http", c.getLivenessProbe().getHandler().getHttpGet().getPort().getStrVal());
        assertEquals(0, c.getReadinessProbe().getHandler().getTcpSocket().getPort().getType());
        assertEquals(8080, c.getReadinessProbe().getHandler().getTcpSocket().getPort().getIntVal());
        assertEquals(3, c.getLivenessProbe().getInitialDelaySeconds());
        assertEquals("settings", pod.getSpec().getVolumes(0).getVolumeSource().getConfigMap().getLocalObjectReference().getName());
        assertEquals(420, pod.getSpec().getVolumes(0).getVolumeSource().getConfigMap().getDefaultMode());
        assertTrue(pod.getSpec().hasEnableServiceLinks());
        assertFalse(pod.getSpec().getEnableServiceLinks());
        assertEquals(30, pod.getSpec().getTerminationGracePeriodSeconds());
        assertEquals(1714557605L, pod.getStatus().getStartTime().getSeconds());
        assertEquals(1714557606L, pod.getStatus().getConditions(0).getLastTransitionTime().getSeconds());
        assertEquals("{\"f:metadata\":{\"f:labels\":{\"f:app\":{}}}}",
                pod.getMetadata().getManagedFields(0).getFieldsV1().getRaw().toStringUtf8());
        assertTrue(pod.getMetadata().getOwnerReferences(0).getController());
    }

    @Test
    void microTimeKeepsItsMicroseconds() throws Exception {
        byte[] body = ProtobufEncoder.encode((ObjectNode) JSON.readTree(FIXTURES.get(4)));

        V1.Event event = V1.Event.parseFrom(unknown(body).getRaw());

        assertEquals(1714557600L, event.getEventTime().getSeconds());
        assertEquals(123_456_000, event.getEventTime().getNanos());
    }

    @Test
    void aListIsTheKindsListMessage() throws Exception {
        ObjectNode a = (ObjectNode) JSON.readTree(FIXTURES.get(0));
        ObjectNode b = a.deepCopy();
        ((ObjectNode) b.get("metadata")).put("name", "other");
        ObjectNode listMeta = JSON.createObjectNode().put("resourceVersion", "99").put("continue", "c1");

        byte[] body = ProtobufEncoder.list("v1", "ConfigMapList", listMeta,
                List.of(ProtobufEncoder.message(a), ProtobufEncoder.message(b)));

        Runtime.Unknown unknown = unknown(body);
        assertEquals("ConfigMapList", unknown.getTypeMeta().getKind());
        V1.ConfigMapList list = V1.ConfigMapList.parseFrom(unknown.getRaw());
        assertEquals("99", list.getMetadata().getResourceVersion());
        assertEquals("c1", list.getMetadata().getContinue());
        assertEquals(List.of("settings", "other"), list.getItemsList().stream().map(i -> i.getMetadata().getName()).toList());
    }

    @Test
    void watchEventsAreLengthPrefixedWatchEventsHoldingTheEnvelope() throws Exception {
        byte[] object = ProtobufEncoder.encode((ObjectNode) JSON.readTree(FIXTURES.get(0)));
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        ProtobufEncoder.watchEvent("ADDED", object, true, out);
        ProtobufEncoder.watchEvent("MODIFIED", object, true, out);

        ByteBuffer stream = ByteBuffer.wrap(out.toByteArray());
        for (String type : List.of("ADDED", "MODIFIED")) {
            byte[] frame = new byte[stream.getInt()];
            stream.get(frame);
            Meta.WatchEvent event = Meta.WatchEvent.parseFrom(frame);
            assertEquals(type, event.getType());
            assertArrayEquals(object, event.getObject().getRaw().toByteArray());
        }
        assertFalse(stream.hasRemaining());
        ByteArrayOutputStream unframed = new ByteArrayOutputStream();
        ProtobufEncoder.watchEvent("ADDED", object, false, unframed);
        assertEquals("ADDED", Meta.WatchEvent.parseFrom(unframed.toByteArray()).getType());
    }

    @Test
    void statusIsMetaStatus() throws Exception {
        byte[] body = ProtobufEncoder.encode((ObjectNode) JSON.readTree(FIXTURES.get(FIXTURES.size() - 1)));

        Meta.Status status = Meta.Status.parseFrom(unknown(body).getRaw());

        assertEquals(404, status.getCode());
        assertEquals("NotFound", status.getReason());
        assertEquals("x", status.getDetails().getName());
    }

    @Test
    void customResourceKindsHaveNoMessageWhateverTheirName() {
        assertTrue(ProtobufEncoder.hasMessage("apps/v1", "Deployment"));
        assertTrue(ProtobufEncoder.hasMessage("v1", "ConfigMap"));
        assertFalse(ProtobufEncoder.hasMessage("apps.example.com/v1", "Deployment"));
        assertFalse(ProtobufEncoder.hasMessage("example.com/v1", "Status"));
        assertFalse(ProtobufEncoder.hasMessage("example.com/v1", "Widget"));
    }

    /**
     * Random messages of every built-in kind, as a Go client could send them: what the decoder
     * makes of one, encoded again and decoded, is the same tree.
     */
    @Test
    void randomObjectsOfEveryKindSurviveDecodeEncodeDecode() {
        Random random = new Random(20261128);
        int kinds = 0;
        for (FileDescriptor file : ProtobufTypes.FILES) {
            for (Descriptor d : file.getMessageTypes()) {
                FieldDescriptor metadata = d.findFieldByName("metadata");
                if (metadata == null || !metadata.getMessageType().getName().equals("ObjectMeta")) {
                    continue;
                }
                kinds++;
                String apiVersion = apiVersion(d);
                for (int i = 0; i < 5; i++) {
                    DynamicMessage m = RandomMessages.of(d, random);
                    ObjectNode once = decoder.decode(ProtobufEncoder.envelope(apiVersion, d.getName(), m.toByteArray()));

                    ObjectNode twice = decoder.decode(ProtobufEncoder.encode(once.deepCopy()));

                    assertEquals(once, twice, d.getFullName());
                }
            }
        }
        assertTrue(kinds >= 60, "kinds tried: " + kinds);
    }

    /** The apiVersion of a proto package {@code k8s.io.api.<group>.<version>}, with the group's full name. */
    private static String apiVersion(Descriptor d) {
        String[] parts = d.getFile().getPackage().split("\\.");
        String group = parts[3];
        String version = parts[4];
        return switch (group) {
            case "core" -> version;
            case "apps", "batch", "policy", "autoscaling" -> group + "/" + version;
            case "rbac" -> "rbac.authorization.k8s.io/" + version;
            default -> group + ".k8s.io/" + version;
        };
    }

    private static Runtime.Unknown unknown(byte[] body) throws Exception {
        assertArrayEquals(new byte[] {'k', '8', 's', 0}, Arrays.copyOf(body, 4));
        return Runtime.Unknown.parseFrom(Arrays.copyOfRange(body, 4, body.length));
    }

    /** What the decoder drops as Go's omitempty would: empty strings outside maps and lists. */
    private static JsonNode withoutEmptyStrings(ObjectNode obj) {
        ObjectNode copy = obj.deepCopy();
        List<String> empty = new ArrayList<>();
        copy.fields().forEachRemaining(e -> {
            if (e.getValue().isTextual() && e.getValue().asText().isEmpty()) {
                empty.add(e.getKey());
            } else if (e.getValue() instanceof ObjectNode o && !e.getKey().equals("data")) {
                copy.set(e.getKey(), withoutEmptyStrings(o));
            }
        });
        empty.forEach(copy::remove);
        return copy;
    }

    /** Random messages whose special types hold values their Go types could hold. */
    private static final class RandomMessages {
        private static final int MAX_DEPTH = 7;

        static DynamicMessage of(Descriptor d, Random r) {
            return message(d, r, 0);
        }

        private static DynamicMessage message(Descriptor d, Random r, int depth) {
            DynamicMessage.Builder b = DynamicMessage.newBuilder(d);
            switch (d.getFullName()) {
                case "k8s.io.apimachinery.pkg.apis.meta.v1.Time" -> {
                    return b.setField(d.findFieldByName("seconds"), 1L + r.nextInt(2_000_000_000)).build();
                }
                case "k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime" -> {
                    return b.setField(d.findFieldByName("seconds"), 1L + r.nextInt(2_000_000_000))
                            .setField(d.findFieldByName("nanos"), r.nextInt(1_000_000) * 1000).build();
                }
                case "k8s.io.apimachinery.pkg.apis.meta.v1.Duration" -> {
                    return b.setField(d.findFieldByName("duration"), (long) r.nextInt() * 1000).build();
                }
                case "k8s.io.apimachinery.pkg.api.resource.Quantity" -> {
                    return b.setField(d.findFieldByName("string"), List.of("1", "500m", "1Gi", "2.5", "100Mi")
                            .get(r.nextInt(5))).build();
                }
                case "k8s.io.apimachinery.pkg.util.intstr.IntOrString" -> {
                    boolean isInt = r.nextBoolean();
                    b.setField(d.findFieldByName("type"), isInt ? 0L : 1L);
                    return (isInt ? b.setField(d.findFieldByName("intVal"), 1 + r.nextInt(65535))
                            : b.setField(d.findFieldByName("strVal"), "port-" + r.nextInt(100))).build();
                }
                case "k8s.io.apimachinery.pkg.runtime.RawExtension" -> {
                    return b.setField(d.findFieldByName("raw"), bytes("{\"a\":" + r.nextInt(100) + "}")).build();
                }
                case "k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1" -> {
                    return b.setField(d.findFieldByName("Raw"), bytes("{\"f:a\":{}}")).build();
                }
                default -> {
                }
            }
            for (FieldDescriptor fd : d.getFields()) {
                if (r.nextInt(3) == 0 || fd.getJavaType() == FieldDescriptor.JavaType.MESSAGE && depth >= MAX_DEPTH) {
                    continue;
                }
                int n = fd.isRepeated() ? 1 + r.nextInt(2) : 1;
                for (int i = 0; i < n; i++) {
                    Object v = fd.isMapField() ? entry(fd.getMessageType(), r, depth) : value(fd, r, depth);
                    if (fd.isRepeated()) {
                        b.addRepeatedField(fd, v);
                    } else {
                        b.setField(fd, v);
                    }
                }
            }
            return b.build();
        }

        private static DynamicMessage entry(Descriptor entry, Random r, int depth) {
            return DynamicMessage.newBuilder(entry)
                    .setField(entry.findFieldByNumber(1), "k" + r.nextInt(1000))
                    .setField(entry.findFieldByNumber(2), value(entry.findFieldByNumber(2), r, depth))
                    .build();
        }

        private static Object value(FieldDescriptor fd, Random r, int depth) {
            return switch (fd.getJavaType()) {
                case STRING -> "s" + Integer.toString(r.nextInt(1 << 20), 36);
                case BOOLEAN -> r.nextBoolean();
                case INT -> 1 + r.nextInt(1000);
                case LONG -> 1L + r.nextInt(1_000_000);
                case FLOAT -> r.nextInt(100) + 0.5f;
                case DOUBLE -> r.nextInt(100) + 0.25;
                case BYTE_STRING -> {
                    byte[] b = new byte[1 + r.nextInt(8)];
                    r.nextBytes(b);
                    yield ByteString.copyFrom(b);
                }
                case ENUM -> fd.getEnumType().getValues().get(0);
                case MESSAGE -> message(fd.getMessageType(), r, depth + 1);
            };
        }

        private static ByteString bytes(String s) {
            return ByteString.copyFrom(s.getBytes(StandardCharsets.UTF_8));
        }
    }
}
