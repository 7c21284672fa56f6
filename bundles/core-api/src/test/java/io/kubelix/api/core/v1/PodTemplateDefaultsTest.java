package io.kubelix.api.core.v1;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

class PodTemplateDefaultsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static ObjectNode defaulted(String template) throws Exception {
        ObjectNode t = (ObjectNode) JSON.readTree(template);
        PodTemplateDefaults.setPodTemplateSpecDefaults(t);
        return t;
    }

    @Test
    void aMinimalTemplateGetsKubesPodSpecAndContainerDefaults() throws Exception {
        JsonNode spec = defaulted("{\"metadata\":{\"labels\":{\"app\":\"web\"}},\"spec\":{\"containers\":"
                + "[{\"name\":\"nginx\",\"image\":\"nginx\",\"ports\":[{\"containerPort\":80}]}]}}").path("spec");

        assertEquals("Always", spec.path("restartPolicy").asText());
        assertEquals("ClusterFirst", spec.path("dnsPolicy").asText());
        assertEquals(30, spec.path("terminationGracePeriodSeconds").asInt());
        assertEquals("default-scheduler", spec.path("schedulerName").asText());
        assertEquals("{}", spec.path("securityContext").toString());
        assertFalse(spec.has("enableServiceLinks"), "a pod default, not a template default");
        JsonNode c = spec.path("containers").get(0);
        assertEquals("/dev/termination-log", c.path("terminationMessagePath").asText());
        assertEquals("File", c.path("terminationMessagePolicy").asText());
        assertEquals("Always", c.path("imagePullPolicy").asText());
        assertEquals("TCP", c.path("ports").get(0).path("protocol").asText());
    }

    @Test
    void pullPolicyFollowsTheImageTag() {
        assertEquals("latest", PodTemplateDefaults.imageTag("nginx"));
        assertEquals("latest", PodTemplateDefaults.imageTag("nginx:latest"));
        assertEquals("latest", PodTemplateDefaults.imageTag("localhost:5000/nginx"));
        assertEquals("1.27", PodTemplateDefaults.imageTag("registry.example.com:5000/team/nginx:1.27"));
        assertEquals("", PodTemplateDefaults.imageTag("nginx@sha256:0123"));
    }

    @Test
    void givenValuesAreKeptAndNestedDefaultsApplied() throws Exception {
        JsonNode spec = defaulted("{\"spec\":{\"restartPolicy\":\"Never\",\"containers\":[{\"name\":\"a\",\"image\":"
                + "\"nginx:1.27\",\"imagePullPolicy\":\"Never\",\"readinessProbe\":{\"httpGet\":{\"port\":80}},"
                + "\"env\":[{\"name\":\"NODE\",\"valueFrom\":{\"fieldRef\":{\"fieldPath\":\"spec.nodeName\"}}}]},"
                + "{\"name\":\"b\",\"image\":\"nginx:1.27\"}],"
                + "\"volumes\":[{\"name\":\"scratch\"},{\"name\":\"cfg\",\"configMap\":{\"name\":\"c\"}}]}}").path("spec");

        assertEquals("Never", spec.path("restartPolicy").asText());
        JsonNode a = spec.path("containers").get(0);
        assertEquals("Never", a.path("imagePullPolicy").asText());
        assertEquals("IfNotPresent", spec.path("containers").get(1).path("imagePullPolicy").asText());
        assertEquals("{\"httpGet\":{\"port\":80,\"path\":\"/\",\"scheme\":\"HTTP\"},\"timeoutSeconds\":1,"
                + "\"periodSeconds\":10,\"successThreshold\":1,\"failureThreshold\":3}", a.path("readinessProbe").toString());
        assertEquals("v1", a.path("env").get(0).path("valueFrom").path("fieldRef").path("apiVersion").asText());
        assertEquals("{}", spec.path("volumes").get(0).path("emptyDir").toString());
        assertEquals(420, spec.path("volumes").get(1).path("configMap").path("defaultMode").asInt());
    }
}
