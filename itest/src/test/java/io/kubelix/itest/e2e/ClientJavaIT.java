package io.kubelix.itest.e2e;

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
import io.kubernetes.client.util.Config;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The official Java client ({@code io.kubernetes:client-java}) with its typed API, as a Java user
 * calls it: typed deletes return the type kube's registry answers (the deleted object for service
 * accounts, services and claims, a Status for configmaps) rather than failing to decode it, and
 * errors map to ApiExceptions with kube's codes.
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

    private ApiClient client() throws Exception {
        return Config.fromConfig(server.kubeconfig().toString());
    }
}
