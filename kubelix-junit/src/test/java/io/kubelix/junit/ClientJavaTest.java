package io.kubelix.junit;

import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.PatchUtils;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The official Java client, injected as a parameter, against the class's own server. */
@KubelixTest
class ClientJavaTest {

    @Test
    void createsAndGetsAConfigMap(ApiClient client, @TestNamespace String namespace) throws ApiException {
        CoreV1Api core = new CoreV1Api(client);
        core.createNamespacedConfigMap(namespace, new V1ConfigMap().metadata(new V1ObjectMeta().name("settings"))
                .data(Map.of("mode", "fast"))).execute();

        assertEquals(Map.of("mode", "fast"), core.readNamespacedConfigMap("settings", namespace).execute().getData());
        ApiException missing = assertThrows(ApiException.class,
                () -> core.readNamespacedConfigMap("missing", namespace).execute());
        assertEquals(404, missing.getCode());
    }

    @Test
    void serverSideApplyConflictsOnAnotherManagersField(ApiClient client, @TestNamespace String namespace)
            throws ApiException {
        V1ConfigMap applied = apply(client, namespace, "first", "1");
        assertEquals(Map.of("a", "1"), applied.getData());

        ApiException conflict = assertThrows(ApiException.class, () -> apply(client, namespace, "second", "2"));
        assertEquals(409, conflict.getCode(), conflict.getResponseBody());
    }

    private static V1ConfigMap apply(ApiClient client, String namespace, String manager, String value)
            throws ApiException {
        CoreV1Api core = new CoreV1Api(client);
        String yaml = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\ndata:\n  a: \"" + value + "\"\n";
        return PatchUtils.patch(V1ConfigMap.class,
                () -> core.patchNamespacedConfigMap("applied", namespace, new V1Patch(yaml)).fieldManager(manager)
                        .buildCall(null),
                V1Patch.PATCH_FORMAT_APPLY_YAML, client);
    }
}
