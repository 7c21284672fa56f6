package io.kubelix.resource.networking;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.Operation;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupVersionKind;
import io.kubelix.api.schema.GroupVersionResource;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** DefaultIngressClass on new ingresses. */
class DefaultIngressClassTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final GroupVersionResource INGRESSES = new GroupVersionResource("networking.k8s.io", "v1", "ingresses");

    private static ObjectNode obj(String json) throws Exception {
        return (ObjectNode) JSON.readTree(json.replace('\'', '"'));
    }

    private static ObjectNode admitted(DefaultIngressClass plugin, String ingress) throws Exception {
        ObjectNode obj = obj(ingress);
        plugin.admit(new AdmissionAttributes(Operation.CREATE, new GroupVersionKind("networking.k8s.io", "v1", "Ingress"),
                INGRESSES, "", "team", "web", obj, null, false, RequestContext.system("team")));
        return obj;
    }

    @Test
    void anIngressWithoutAClassGetsTheNewestDefaultOne() throws Exception {
        List<ObjectNode> classes = List.of(
                obj("{'metadata':{'name':'nginx','creationTimestamp':'2025-01-01T00:00:00Z','annotations':"
                        + "{'ingressclass.kubernetes.io/is-default-class':'true'}}}"),
                obj("{'metadata':{'name':'b','creationTimestamp':'2024-01-01T00:00:00Z','annotations':"
                        + "{'ingressclass.kubernetes.io/is-default-class':'true'}}}"),
                obj("{'metadata':{'name':'traefik','creationTimestamp':'2026-01-01T00:00:00Z'}}"));
        DefaultIngressClass plugin = new DefaultIngressClass(() -> classes);

        assertEquals("nginx", admitted(plugin, "{'spec':{}}").path("spec").path("ingressClassName").asText());
        assertEquals("traefik", admitted(plugin, "{'spec':{'ingressClassName':'traefik'}}").path("spec")
                .path("ingressClassName").asText());
        assertEquals(false, admitted(plugin, "{'metadata':{'annotations':{'kubernetes.io/ingress.class':'old'}},'spec':{}}")
                .path("spec").has("ingressClassName"));
    }
}
