package io.kubelix.itest.e2e;

import com.google.protobuf.ByteString;
import io.kubernetes.client.ProtoClient;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaim;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaimSpec;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1ServicePort;
import io.kubernetes.client.openapi.models.V1ServiceSpec;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import io.kubernetes.client.openapi.models.V1Status;
import io.kubernetes.client.openapi.models.V1VolumeResourceRequirements;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.proto.IntStr;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.Resource;
import io.kubernetes.client.proto.Runtime;
import io.kubernetes.client.proto.V1;
import io.kubernetes.client.util.Config;
import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The official Java client ({@code io.kubernetes:client-java}) with its typed API, as a Java user
 * calls it: typed deletes return the type kube's registry answers (the deleted object for service
 * accounts, services and claims, a Status for configmaps) rather than failing to decode it, and
 * errors map to ApiExceptions with kube's codes. Its {@code ProtoClient} reads and writes
 * ConfigMaps and Pods in Kubernetes protobuf, and a watch asked in protobuf streams WatchEvents.
 */
class ClientJavaIT extends KubectlSuite {
    ClientJavaIT() {
        super("client-java", "serviceaccounts,services,persistentvolumeclaims");
    }

    @Test
    void typedDeletesAnswerTheTypeKubeAnswers() throws Exception {
        CoreV1Api api = new CoreV1Api(client());
        String ns = "java-delete";
        api.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(ns))).execute();
        api.createNamespacedServiceAccount(ns, new V1ServiceAccount().metadata(new V1ObjectMeta().name("robot")))
                .execute();
        api.createNamespacedService(ns, new V1Service().metadata(new V1ObjectMeta().name("web"))
                .spec(new V1ServiceSpec().ports(List.of(new V1ServicePort().port(80))))).execute();
        api.createNamespacedPersistentVolumeClaim(ns, new V1PersistentVolumeClaim()
                .metadata(new V1ObjectMeta().name("data"))
                .spec(new V1PersistentVolumeClaimSpec().accessModes(List.of("ReadWriteOnce"))
                        .resources(new V1VolumeResourceRequirements().requests(Map.of("storage", new Quantity("1Gi"))))))
                .execute();
        api.createNamespacedConfigMap(ns, new V1ConfigMap().metadata(new V1ObjectMeta().name("settings"))).execute();

        assertEquals("robot", api.deleteNamespacedServiceAccount("robot", ns).execute().getMetadata().getName());
        assertEquals("web", api.deleteNamespacedService("web", ns).execute().getMetadata().getName());
        assertEquals("data", api.deleteNamespacedPersistentVolumeClaim("data", ns).execute().getMetadata().getName());
        V1Status status = api.deleteNamespacedConfigMap("settings", ns).execute();
        assertEquals("Success", status.getStatus());
        assertEquals("settings", status.getDetails().getName());
    }

    @Test
    void errorsAreApiExceptionsWithKubesCodes() throws Exception {
        CoreV1Api api = new CoreV1Api(client());
        String ns = "java-errors";
        api.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(ns))).execute();
        V1ConfigMap cm = new V1ConfigMap().metadata(new V1ObjectMeta().name("once"));
        api.createNamespacedConfigMap(ns, cm).execute();

        assertEquals(409, assertThrows(ApiException.class, () -> api.createNamespacedConfigMap(ns, cm).execute())
                .getCode());
        assertEquals(409, assertThrows(ApiException.class,
                () -> api.createNamespacedConfigMap(ns, cm).dryRun("All").execute()).getCode());
        assertEquals(404, assertThrows(ApiException.class,
                () -> api.readNamespacedConfigMap("missing", ns).execute()).getCode());
        assertEquals(422, assertThrows(ApiException.class, () -> api.createNamespacedConfigMap(ns,
                new V1ConfigMap().metadata(new V1ObjectMeta().name("Not_A_Name")))
                .execute()).getCode());
    }

    @Test
    void protoClientCreatesGetsListsAndDeletesInProtobuf() throws Exception {
        new CoreV1Api(client()).createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name("java-proto")))
                .execute();
        ProtoClient proto = new ProtoClient(client());
        String configmaps = "/api/v1/namespaces/java-proto/configmaps";
        String pods = "/api/v1/namespaces/java-proto/pods";
        V1.ConfigMap cm = V1.ConfigMap.newBuilder()
                .setMetadata(Meta.ObjectMeta.newBuilder().setName("settings").putLabels("app", "web"))
                .putData("k", "v").putBinaryData("b", ByteString.copyFrom(new byte[] {0, 1, (byte) 0xff})).build();
        V1.Pod pod = V1.Pod.newBuilder()
                .setMetadata(Meta.ObjectMeta.newBuilder().setName("web"))
                .setSpec(V1.PodSpec.newBuilder().addContainers(V1.Container.newBuilder().setName("app").setImage("nginx")
                        .setResources(V1.ResourceRequirements.newBuilder()
                                .putLimits("cpu", Resource.Quantity.newBuilder().setString("500m").build())
                                .putLimits("memory", Resource.Quantity.newBuilder().setString("64Mi").build()))
                        .setLivenessProbe(V1.Probe.newBuilder().setInitialDelaySeconds(3)
                                .setHandler(V1.ProbeHandler.newBuilder().setHttpGet(V1.HTTPGetAction.newBuilder()
                                        .setPath("/healthz").setPort(IntStr.IntOrString.newBuilder().setType(1)
                                                .setStrVal("http")))))))
                .build();

        ProtoClient.ObjectOrStatus<V1.ConfigMap> created = proto.create(cm, configmaps, "v1", "ConfigMap");
        ProtoClient.ObjectOrStatus<V1.Pod> createdPod = proto.create(pod, pods, "v1", "Pod");
        ProtoClient.ObjectOrStatus<V1.ConfigMap> got = proto.get(V1.ConfigMap.newBuilder(), configmaps + "/settings");
        ProtoClient.ObjectOrStatus<V1.Pod> gotPod = proto.get(V1.Pod.newBuilder(), pods + "/web");
        ProtoClient.ObjectOrStatus<V1.ConfigMapList> list = proto.list(V1.ConfigMapList.newBuilder(), configmaps);
        ProtoClient.ObjectOrStatus<V1.PodList> podList = proto.list(V1.PodList.newBuilder(), pods);
        ProtoClient.ObjectOrStatus<V1.ConfigMap> missing = proto.get(V1.ConfigMap.newBuilder(), configmaps + "/missing");

        assertNull(created.status, () -> String.valueOf(created.status));
        assertTrue(!created.object.getMetadata().getUid().isEmpty());
        assertTrue(created.object.getMetadata().getCreationTimestamp().getSeconds() > 1_600_000_000L);
        assertEquals(created.object, got.object);
        assertEquals("v", got.object.getDataMap().get("k"));
        assertEquals(ByteString.copyFrom(new byte[] {0, 1, (byte) 0xff}), got.object.getBinaryDataMap().get("b"));
        assertNull(createdPod.status, () -> String.valueOf(createdPod.status));
        V1.Container app = gotPod.object.getSpec().getContainers(0);
        assertEquals("500m", app.getResources().getLimitsMap().get("cpu").getString());
        assertEquals("http", app.getLivenessProbe().getHandler().getHttpGet().getPort().getStrVal());
        assertEquals(1, app.getLivenessProbe().getHandler().getHttpGet().getPort().getType());
        assertTrue(gotPod.object.getMetadata().getCreationTimestamp().getSeconds() > 1_600_000_000L);
        // The namespace's kube-root-ca.crt is listed too, as in a cluster.
        assertEquals(List.of("settings"), list.object.getItemsList().stream().map(i -> i.getMetadata().getName())
                .filter(name -> !name.equals("kube-root-ca.crt")).toList());
        assertTrue(!list.object.getMetadata().getResourceVersion().isEmpty());
        assertEquals(List.of("web"), podList.object.getItemsList().stream().map(i -> i.getMetadata().getName()).toList());
        assertNotNull(missing.status);
        assertEquals(404, missing.status.getCode());
        assertEquals("NotFound", missing.status.getReason());

        ProtoClient.ObjectOrStatus<V1.ConfigMap> deleted = proto.delete(V1.ConfigMap.newBuilder(), configmaps + "/settings");
        ProtoClient.ObjectOrStatus<V1.Pod> deletedPod = proto.delete(V1.Pod.newBuilder(), pods + "/web",
                Meta.DeleteOptions.newBuilder().setGracePeriodSeconds(0).build());

        assertEquals("Success", deleted.status.getStatus());
        assertEquals("settings", deleted.status.getDetails().getName());
        assertEquals("web", deletedPod.object == null ? deletedPod.status.getDetails().getName()
                : deletedPod.object.getMetadata().getName());
        ProtoClient.ObjectOrStatus<V1.ConfigMap> gone = proto.get(V1.ConfigMap.newBuilder(), configmaps + "/settings");
        assertEquals(404, gone.status.getCode());
    }

    /** client-java has no protobuf watch: the test asks as client-go does and reads the length-prefixed events. */
    @Test
    void aWatchInProtobufStreamsWatchEvents() throws Exception {
        ApiClient api = client();
        new CoreV1Api(api).createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name("java-proto-watch")))
                .execute();
        String path = "/api/v1/namespaces/java-proto-watch/configmaps";
        ProtoClient proto = new ProtoClient(api);
        ProtoClient.ObjectOrStatus<V1.ConfigMapList> before = proto.list(V1.ConfigMapList.newBuilder(), path);
        String rv = before.object.getMetadata().getResourceVersion();
        okhttp3.Request request = api.buildRequest(api.getBasePath(), path, "GET",
                new ArrayList<>(List.of(new io.kubernetes.client.openapi.Pair("watch", "true"),
                        new io.kubernetes.client.openapi.Pair("resourceVersion", rv),
                        new io.kubernetes.client.openapi.Pair("timeoutSeconds", "20"))),
                new ArrayList<>(), null, new java.util.HashMap<>(Map.of("Accept",
                        "application/vnd.kubernetes.protobuf;stream=watch, application/json")),
                new java.util.HashMap<>(), new java.util.HashMap<>(), new String[] {"BearerToken"}, null);

        try (okhttp3.Response response = api.getHttpClient().newCall(request).execute()) {
            assertEquals(200, response.code());
            assertEquals("application/vnd.kubernetes.protobuf;stream=watch", response.header("Content-Type"));
            proto.create(V1.ConfigMap.newBuilder().setMetadata(Meta.ObjectMeta.newBuilder().setName("watched"))
                    .putData("k", "1").build(), path, "v1", "ConfigMap");
            proto.delete(V1.ConfigMap.newBuilder(), path + "/watched");
            DataInputStream in = new DataInputStream(response.body().byteStream());
            List<String> types = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                Meta.WatchEvent event = Meta.WatchEvent.parseFrom(in.readNBytes(in.readInt()));
                byte[] raw = event.getObject().getRaw().toByteArray();
                assertEquals("k8s\0", new String(Arrays.copyOf(raw, 4), java.nio.charset.StandardCharsets.ISO_8859_1));
                Runtime.Unknown unknown = Runtime.Unknown.parseFrom(Arrays.copyOfRange(raw, 4, raw.length));
                assertEquals("ConfigMap", unknown.getTypeMeta().getKind());
                assertEquals("watched", V1.ConfigMap.parseFrom(unknown.getRaw()).getMetadata().getName());
                types.add(event.getType());
            }
            assertEquals(List.of("ADDED", "DELETED"), types);
        }
    }

    private ApiClient client() throws Exception {
        return Config.fromConfig(server.kubeconfig().toString());
    }
}
