package io.kubelix.api.validation;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubelix.api.errors.FieldError;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class MetadataValidatorsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void labelSelectorErrorsNameEachExpression() throws Exception {
        List<FieldError> errs = MetadataValidators.validateLabelSelector(JSON.readTree("{\"matchLabels\":{\"a b\":\"x\"},"
                + "\"matchExpressions\":[{\"key\":\"k\",\"operator\":\"In\"},{\"key\":\"k\",\"operator\":\"Exists\","
                + "\"values\":[\"v\"]},{\"key\":\"k\",\"operator\":\"Like\"}]}"), "spec.selector");

        assertEquals(List.of("spec.selector.matchLabels", "spec.selector.matchExpressions[0].values",
                "spec.selector.matchExpressions[1].values", "spec.selector.matchExpressions[2].operator"),
                errs.stream().map(FieldError::field).toList());
        assertEquals("spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is "
                + "'In' or 'NotIn'", errs.get(1).message());
        assertEquals("spec.selector.matchExpressions[2].operator: Invalid value: \"Like\": not a valid selector operator",
                errs.get(3).message());
    }

    @Test
    void goSyntaxPrintsMapsAndSelectorsAsKubesMessagesDo() throws Exception {
        assertEquals("map[string]string{\"a\":\"1\", \"b\":\"2\"}",
                GoSyntax.stringMap(JSON.readTree("{\"b\":\"2\",\"a\":\"1\"}")).toString());
        assertEquals("v1.LabelSelector{MatchLabels:map[string]string{\"app\":\"web\"}, "
                + "MatchExpressions:[]v1.LabelSelectorRequirement(nil)}",
                GoSyntax.labelSelector(JSON.readTree("{\"matchLabels\":{\"app\":\"web\"}}")).toString());
    }
}
