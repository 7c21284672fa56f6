package io.kubelix.api.core.v1;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class PodTemplateValidationTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static List<String> messages(String template) throws Exception {
        ObjectNode t = (ObjectNode) JSON.readTree(template);
        PodTemplateDefaults.setPodTemplateSpecDefaults(t);
        return PodTemplateValidation.validatePodTemplateSpec(t, "spec.template").stream().map(FieldError::message).toList();
    }

    @Test
    void aDefaultedTemplateWithOneContainerIsValid() throws Exception {
        assertEquals(List.of(), messages("{\"metadata\":{\"labels\":{\"app\":\"web\"}},\"spec\":{\"containers\":"
                + "[{\"name\":\"web\",\"image\":\"nginx\",\"ports\":[{\"name\":\"http\",\"containerPort\":80}]}]}}"));
    }

    @Test
    void containersAreRequired() throws Exception {
        assertEquals(List.of("spec.template.spec.containers: Required value"), messages("{\"spec\":{}}"));
        assertEquals(List.of("spec.template: Required value"),
                PodTemplateValidation.validatePodTemplateSpec(null, "spec.template").stream().map(FieldError::message).toList());
    }

    @Test
    void containerNamesAndImagesAsKubeReportsThem() throws Exception {
        assertEquals(List.of(
                "spec.template.spec.containers[0].name: Required value",
                "spec.template.spec.containers[0].image: Required value",
                "spec.template.spec.containers[1].name: Invalid value: \"Web\": a lowercase RFC 1123 label must consist of "
                        + "lower case alphanumeric characters or '-', and must start and end with an alphanumeric character "
                        + "(e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
                "spec.template.spec.containers[3].name: Duplicate value: \"a\""),
                messages("{\"spec\":{\"containers\":[{\"name\":\"\"},{\"name\":\"Web\",\"image\":\"x\"},"
                        + "{\"name\":\"a\",\"image\":\"x\"},{\"name\":\"a\",\"image\":\"x\"}]}}"));
    }

    @Test
    void portsMountsAndPolicies() throws Exception {
        assertEquals(List.of(
                "spec.template.spec.containers[0].ports[0].containerPort: Required value",
                "spec.template.spec.containers[0].ports[1].containerPort: Invalid value: 70000: must be between 1 and "
                        + "65535, inclusive",
                "spec.template.spec.containers[0].ports[1].protocol: Unsupported value: \"HTTP\": supported values: "
                        + "\"SCTP\", \"TCP\", \"UDP\"",
                "spec.template.spec.containers[0].volumeMounts[0].name: Not found: \"data\"",
                "spec.template.spec.restartPolicy: Unsupported value: \"Sometimes\": supported values: \"Always\", "
                        + "\"OnFailure\", \"Never\""),
                messages("{\"spec\":{\"restartPolicy\":\"Sometimes\",\"containers\":[{\"name\":\"a\",\"image\":\"x\","
                        + "\"ports\":[{},{\"containerPort\":70000,\"protocol\":\"HTTP\"}],"
                        + "\"volumeMounts\":[{\"name\":\"data\",\"mountPath\":\"/data\"}]}]}}"));
    }

    @Test
    void templateLabelsArePathedWithoutMetadata() throws Exception {
        assertEquals("spec.template.labels", PodTemplateValidation.validatePodTemplateSpec(JSON.readTree(
                "{\"metadata\":{\"labels\":{\"a b\":\"x\"}},\"spec\":{\"containers\":[{\"name\":\"a\",\"image\":\"x\","
                        + "\"imagePullPolicy\":\"Always\",\"terminationMessagePolicy\":\"File\"}],"
                        + "\"restartPolicy\":\"Always\",\"dnsPolicy\":\"ClusterFirst\"}}"), "spec.template").get(0).field());
    }
}
