package io.kubelix.resource.rbac;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The aggregation: the rules of the other cluster roles the selectors pick, in name order, each once. */
class ClusterRoleAggregationControllerTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void picksTheRulesOfMatchingRolesInNameOrderWithoutRepeats() throws Exception {
        ObjectNode view = role("{\"metadata\":{\"name\":\"view\"},\"aggregationRule\":{\"clusterRoleSelectors\":["
                + "{\"matchLabels\":{\"aggregate-to-view\":\"true\"}}]},\"rules\":[{\"verbs\":[\"stale\"]}]}");
        ObjectNode b = role("{\"metadata\":{\"name\":\"b-widgets\",\"labels\":{\"aggregate-to-view\":\"true\"}},"
                + "\"rules\":[{\"verbs\":[\"get\"],\"resources\":[\"widgets\"]},{\"verbs\":[\"get\"],\"resources\":[\"pods\"]}]}");
        ObjectNode a = role("{\"metadata\":{\"name\":\"a-pods\",\"labels\":{\"aggregate-to-view\":\"true\"}},"
                + "\"rules\":[{\"verbs\":[\"get\"],\"resources\":[\"pods\"]}]}");
        ObjectNode other = role("{\"metadata\":{\"name\":\"c-secrets\",\"labels\":{\"aggregate-to-edit\":\"true\"}},"
                + "\"rules\":[{\"verbs\":[\"get\"],\"resources\":[\"secrets\"]}]}");

        assertEquals(JSON.readTree("[{\"verbs\":[\"get\"],\"resources\":[\"pods\"]},"
                        + "{\"verbs\":[\"get\"],\"resources\":[\"widgets\"]}]"),
                ClusterRoleAggregationController.aggregate(view, List.of(view, b, other, a)));
    }

    private static ObjectNode role(String json) throws Exception {
        return (ObjectNode) JSON.readTree(json);
    }
}
