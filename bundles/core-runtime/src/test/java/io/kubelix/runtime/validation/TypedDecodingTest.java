package io.kubelix.runtime.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.schema.ResourceSchema;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Bodies kube's typed decoding refuses, against the built-in kinds' generated schemas, worded as kube words them. */
class TypedDecodingTest {
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(com.fasterxml.jackson.databind.DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    static ResourceSchema builtin(String name) {
        return ResourceSchema.load(TypedDecodingTest.class, "/openapi/builtin.json", name);
    }

    @Test
    void wronglyTypedPodFieldsAreRefusedAsKubeRefusesThem() {
        TypedDecoding pods = new TypedDecoding(builtin("io.k8s.api.core.v1.Pod"), "Pod", "v1");
        String prefix = "Pod in version \"v1\" cannot be handled as a Pod: ";

        assertRefused(pods, "{\"spec\":{\"priority\":\"abc\"}}",
                prefix + "json: cannot unmarshal string into Go struct field PodSpec.spec.priority of type int32");
        assertRefused(pods, "{\"spec\":{\"terminationGracePeriodSeconds\":1e400}}",
                prefix + "json: cannot unmarshal number 1e+400 into Go struct field PodSpec.spec.terminationGracePeriodSeconds of type int64");
        assertRefused(pods, "{\"spec\":{\"activeDeadlineSeconds\":1000000.0}}",
                prefix + "json: cannot unmarshal number 1e+06 into Go struct field PodSpec.spec.activeDeadlineSeconds of type int64");
        assertRefused(pods, "{\"spec\":{\"activeDeadlineSeconds\":9223372036854775808}}",
                prefix + "json: cannot unmarshal number 9223372036854775808 into Go struct field PodSpec.spec.activeDeadlineSeconds of type int64");
        assertRefused(pods, "{\"spec\":{\"activeDeadlineSeconds\":1.5}}",
                prefix + "json: cannot unmarshal number 1.5 into Go struct field PodSpec.spec.activeDeadlineSeconds of type int64");
        assertRefused(pods, "{\"spec\":{\"priority\":2147483648}}",
                prefix + "json: cannot unmarshal number 2147483648 into Go struct field PodSpec.spec.priority of type int32");
        assertRefused(pods, "{\"spec\":{\"hostNetwork\":\"yes\"}}",
                prefix + "json: cannot unmarshal string into Go struct field PodSpec.spec.hostNetwork of type bool");
        assertRefused(pods, "{\"spec\":{\"containers\":{}}}",
                prefix + "json: cannot unmarshal object into Go struct field PodSpec.spec.containers of type []v1.Container");
        assertRefused(pods, "{\"spec\":{\"containers\":[{\"name\":\"c\",\"ports\":[{\"containerPort\":\"80\"}]}]}}",
                prefix + "json: cannot unmarshal string into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32");
        assertRefused(pods, "{\"spec\":5}", prefix + "json: cannot unmarshal number into Go struct field Pod.spec of type v1.PodSpec");
        assertRefused(pods, "{\"metadata\":{\"labels\":{\"a\":1}}}",
                prefix + "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string");
        assertRefused(pods, "{\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":{\"limits\":{\"cpu\":\"lots\"}}}]}}",
                prefix + "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
        assertRefused(pods, "{\"spec\":{\"containers\":[{\"name\":\"c\",\"livenessProbe\":{\"httpGet\":{\"port\":1.5}}}]}}",
                prefix + "json: cannot unmarshal number 1.5 into Go value of type int32");
        assertRefused(pods, "{\"metadata\":{\"creationTimestamp\":\"yesterday\"}}",
                prefix + "parsing time \"yesterday\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"yesterday\" as \"2006\"");
    }

    /** What the kinds' strategies once checked one by one, which kube answers while decoding. */
    @Test
    void wronglyTypedFieldsOfOtherKindsAreRefusedAsKubeRefusesThem() {
        String quantity = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
        assertRefused(new TypedDecoding(builtin("io.k8s.api.apps.v1.Deployment"), "Deployment", "v1"),
                "{\"spec\":{\"replicas\":\"two\"}}", "Deployment in version \"v1\" cannot be handled as a Deployment: "
                        + "json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32");
        assertRefused(new TypedDecoding(builtin("io.k8s.api.batch.v1.Job"), "Job", "v1"),
                "{\"spec\":{\"parallelism\":\"two\"}}", "Job in version \"v1\" cannot be handled as a Job: "
                        + "json: cannot unmarshal string into Go struct field JobSpec.spec.parallelism of type int32");
        assertRefused(new TypedDecoding(builtin("io.k8s.api.storage.v1.CSIDriver"), "CSIDriver", "v1"),
                "{\"spec\":[]}", "CSIDriver in version \"v1\" cannot be handled as a CSIDriver: "
                        + "json: cannot unmarshal array into Go struct field CSIDriver.spec of type v1.CSIDriverSpec");
        assertRefused(new TypedDecoding(builtin("io.k8s.api.core.v1.Node"), "Node", "v1"),
                "{\"spec\":\"x\"}", "Node in version \"v1\" cannot be handled as a Node: "
                        + "json: cannot unmarshal string into Go struct field Node.spec of type v1.NodeSpec");
        assertRefused(new TypedDecoding(builtin("io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler"),
                        "HorizontalPodAutoscaler", "v2"),
                "{\"spec\":{\"metrics\":[{\"type\":\"Pods\",\"pods\":{\"target\":{\"averageValue\":\"5foo\"}}}]}}",
                "HorizontalPodAutoscaler in version \"v2\" cannot be handled as a HorizontalPodAutoscaler: " + quantity);
        assertRefused(new TypedDecoding(builtin("io.k8s.api.core.v1.PersistentVolume"), "PersistentVolume", "v1"),
                "{\"spec\":{\"capacity\":{\"storage\":\"lots\"}}}",
                "PersistentVolume in version \"v1\" cannot be handled as a PersistentVolume: " + quantity);
        assertRefused(new TypedDecoding(builtin("io.k8s.api.core.v1.ResourceQuota"), "ResourceQuota", "v1"),
                "{\"status\":{\"used\":{\"pods\":\"many\"}}}",
                "ResourceQuota in version \"v1\" cannot be handled as a ResourceQuota: " + quantity);
        assertRefused(new TypedDecoding(builtin("io.k8s.api.core.v1.LimitRange"), "LimitRange", "v1"),
                "{\"spec\":{\"limits\":[{\"max\":{\"cpu\":\"fast\"}}]}}",
                "LimitRange in version \"v1\" cannot be handled as a LimitRange: " + quantity);
    }

    @Test
    void wellTypedBodiesAndNullsPass() throws Exception {
        TypedDecoding pods = new TypedDecoding(builtin("io.k8s.api.core.v1.Pod"), "Pod", "v1");
        pods.check(JSON.readTree("{\"metadata\":{\"name\":\"p\",\"labels\":{\"a\":\"b\"},\"creationTimestamp\":null},"
                + "\"spec\":{\"priority\":null,\"terminationGracePeriodSeconds\":30,\"containers\":[{\"name\":\"c\","
                + "\"image\":\"i\",\"resources\":{\"limits\":{\"cpu\":\"500m\",\"memory\":1024}},"
                + "\"livenessProbe\":{\"httpGet\":{\"port\":\"http\"}},\"ports\":[{\"containerPort\":80}]}]},"
                + "\"status\":{\"startTime\":\"2026-01-01T00:00:00Z\"}}"));
        TypedDecoding leases = new TypedDecoding(builtin("io.k8s.api.coordination.v1.Lease"), "Lease", "v1");
        leases.check(JSON.readTree("{\"spec\":{\"leaseDurationSeconds\":15,\"renewTime\":\"2026-01-01T00:00:00.123456Z\"}}"));
        assertRefused(leases, "{\"spec\":{\"leaseDurationSeconds\":\"abc\"}}", "Lease in version \"v1\" cannot be handled "
                + "as a Lease: json: cannot unmarshal string into Go struct field LeaseSpec.spec.leaseDurationSeconds of type int32");
    }

    private static void assertRefused(TypedDecoding typed, String body, String message) {
        JsonNode obj;
        try {
            obj = JSON.readTree(body);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        StatusException e = assertThrows(StatusException.class, () -> typed.check(obj), body);
        assertEquals(400, e.code());
        assertEquals(message, e.getMessage(), body);
    }
}
