package io.kubelix.resource.core.serviceaccount;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.Operation;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupVersionKind;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.resource.core.testing.Json;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The ServiceAccount admission plugin on new pods. */
class ServiceAccountAdmissionTest {
    private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");

    private final Map<String, ObjectNode> accounts = new HashMap<>();
    private final ServiceAccountAdmission plugin = new ServiceAccountAdmission(
            (ns, name) -> Optional.ofNullable(accounts.get(ns + "/" + name)), 1);

    private static AdmissionAttributes create(ObjectNode pod) {
        return new AdmissionAttributes(Operation.CREATE, new GroupVersionKind("", "v1", "Pod"), PODS, "", "team",
                "web", pod, null, false, RequestContext.system("team"));
    }

    @Test
    void aPodRunsAsDefaultWithKubesProjectedTokenVolumeMountedInEveryContainer() {
        accounts.put("team/default", Json.obj("{'metadata':{'name':'default'}}"));
        ObjectNode pod = Json.obj("{'spec':{'containers':[{'name':'app'},{'name':'own','volumeMounts':[{'name':'x',"
                + "'mountPath':'/var/run/secrets/kubernetes.io/serviceaccount'}]}],'initContainers':[{'name':'setup'}]}}");

        plugin.admit(create(pod));

        ObjectNode spec = (ObjectNode) pod.path("spec");
        assertEquals("default", spec.path("serviceAccountName").asText());
        String volume = spec.path("volumes").path(0).path("name").asText();
        assertTrue(volume.matches("kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}"), volume);
        assertEquals("{\"sources\":[{\"serviceAccountToken\":{\"expirationSeconds\":3607,\"path\":\"token\"}},"
                + "{\"configMap\":{\"name\":\"kube-root-ca.crt\",\"items\":[{\"key\":\"ca.crt\",\"path\":\"ca.crt\"}]}},"
                + "{\"downwardAPI\":{\"items\":[{\"path\":\"namespace\",\"fieldRef\":{\"apiVersion\":\"v1\","
                + "\"fieldPath\":\"metadata.namespace\"}}]}}],\"defaultMode\":420}",
                spec.path("volumes").path(0).path("projected").toString());
        String mount = "[{\"name\":\"" + volume + "\",\"readOnly\":true,\"mountPath\":"
                + "\"/var/run/secrets/kubernetes.io/serviceaccount\"}]";
        assertEquals(mount, spec.path("containers").path(0).path("volumeMounts").toString());
        assertEquals(mount, spec.path("initContainers").path(0).path("volumeMounts").toString());
        assertEquals(1, spec.path("containers").path(1).path("volumeMounts").size(), "a mount of its own is kept");
    }

    @Test
    void noTokenIsMountedWhenThePodOrItsAccountSaysNot() {
        accounts.put("team/bot", Json.obj("{'metadata':{'name':'bot'},'automountServiceAccountToken':false}"));
        accounts.put("team/default", Json.obj("{'metadata':{'name':'default'}}"));
        ObjectNode byAccount = Json.obj("{'spec':{'serviceAccountName':'bot','containers':[{'name':'app'}]}}");
        ObjectNode byPod = Json.obj("{'spec':{'automountServiceAccountToken':false,'containers':[{'name':'app'}]}}");

        plugin.admit(create(byAccount));
        plugin.admit(create(byPod));

        assertFalse(byAccount.path("spec").has("volumes"));
        assertFalse(byPod.path("spec").has("volumes"));
        assertEquals("default", byPod.path("spec").path("serviceAccountName").asText());
    }

    @Test
    void aMissingServiceAccountIsKubesForbidden() {
        StatusException e = assertThrows(StatusException.class, () -> plugin.admit(create(Json.obj(
                "{'spec':{'serviceAccountName':'ghost','containers':[{'name':'app'}]}}"))));

        assertEquals(403, e.code());
        assertEquals("pods \"web\" is forbidden: error looking up service account team/ghost: serviceaccount \"ghost\" "
                + "not found", e.getMessage());
    }
}
