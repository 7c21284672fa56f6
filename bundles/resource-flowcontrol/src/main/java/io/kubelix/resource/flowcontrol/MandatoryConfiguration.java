package io.kubelix.resource.flowcontrol;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Map;
import java.util.Set;

/**
 * The specs of kube's mandatory objects (internalbootstrap.MandatoryFlowSchemas and
 * MandatoryPriorityLevelConfigurations), as validation needs them: an object named {@code exempt} or
 * {@code catch-all} must keep its fixed spec, except the {@code spec.exempt} of the {@code exempt}
 * priority level. They are written here in their defaulted v1 form; creating the objects is the server's
 * business, not this bundle's.
 */
final class MandatoryConfiguration {
    static final String EXEMPT = "exempt";
    static final String CATCH_ALL = "catch-all";

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** Every rule matches all requests; only the subjects and the level differ. */
    private static final String EVERYTHING = "'resourceRules':[{'verbs':['*'],'apiGroups':['*'],'resources':['*'],"
            + "'clusterScope':true,'namespaces':['*']}],'nonResourceRules':[{'verbs':['*'],'nonResourceURLs':['*']}]";

    static final Map<String, JsonNode> FLOW_SCHEMA_SPECS = Map.of(
            EXEMPT, json("{'matchingPrecedence':1,'priorityLevelConfiguration':{'name':'exempt'},"
                    + "'rules':[{'subjects':[{'kind':'Group','group':{'name':'system:masters'}}]," + EVERYTHING + "}]}"),
            CATCH_ALL, json("{'matchingPrecedence':10000,'priorityLevelConfiguration':{'name':'catch-all'},"
                    + "'distinguisherMethod':{'type':'ByUser'},'rules':[{'subjects':["
                    + "{'kind':'Group','group':{'name':'system:unauthenticated'}},"
                    + "{'kind':'Group','group':{'name':'system:authenticated'}}]," + EVERYTHING + "}]}"));

    static final Map<String, JsonNode> PRIORITY_LEVEL_SPECS = Map.of(
            EXEMPT, json("{'type':'Exempt','exempt':{'nominalConcurrencyShares':0,'lendablePercent':0}}"),
            CATCH_ALL, json("{'type':'Limited','limited':{'nominalConcurrencyShares':5,'lendablePercent':0,"
                    + "'limitResponse':{'type':'Reject'}}}"));

    /** Fields that are pointers in kube's internal types, where an explicit 0 differs from none. */
    private static final Set<String> POINTER_FIELDS = Set.of("lendablePercent", "borrowingLimitPercent");

    private MandatoryConfiguration() {
    }

    /**
     * apiequality.Semantic.DeepEqual over the decoded structs: a missing field, null, false, 0, "" and an
     * empty list or object are all Go's zero value and so equal, except in pointer fields.
     */
    static boolean semanticallyEqual(JsonNode a, JsonNode b) {
        return normalized(a, null).equals(normalized(b, null));
    }

    private static JsonNode normalized(JsonNode n, String field) {
        if (n == null || n.isNull() || n.isMissingNode()) {
            return MAPPER.nullNode();
        }
        if (n.isObject()) {
            ObjectNode out = MAPPER.createObjectNode();
            n.properties().forEach(e -> {
                JsonNode v = normalized(e.getValue(), e.getKey());
                if (!v.isNull()) {
                    out.set(e.getKey(), v);
                }
            });
            return out.isEmpty() ? MAPPER.nullNode() : out;
        }
        if (n.isArray()) {
            ArrayNode out = MAPPER.createArrayNode();
            n.forEach(v -> out.add(normalized(v, null)));
            return out.isEmpty() ? MAPPER.nullNode() : out;
        }
        boolean pointer = field != null && POINTER_FIELDS.contains(field);
        if (n.isNumber()) {
            return n.asLong() == 0 && !pointer ? MAPPER.nullNode() : MAPPER.getNodeFactory().numberNode(n.asLong());
        }
        if (n.isBoolean() && !n.asBoolean() || n.isTextual() && n.asText().isEmpty()) {
            return MAPPER.nullNode();
        }
        return n;
    }

    private static JsonNode json(String singleQuoted) {
        try {
            return MAPPER.readTree(singleQuoted.replace('\'', '"'));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
