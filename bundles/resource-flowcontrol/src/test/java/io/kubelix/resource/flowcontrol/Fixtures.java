package io.kubelix.resource.flowcontrol;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.request.RequestContext;

import java.util.List;

/** Objects written as kubectl sends them, and their create through the strategy. */
final class Fixtures {
    static final RequestContext CTX = RequestContext.system("");
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private Fixtures() {
    }

    /** A JSON object written with single quotes. */
    static ObjectNode json(String singleQuoted) {
        return (ObjectNode) node(singleQuoted);
    }

    /** Any JSON value written with single quotes. */
    static JsonNode node(String singleQuoted) {
        try {
            return MAPPER.readTree(singleQuoted.replace('\'', '"'));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    static ObjectNode object(String kind, String name, String spec) {
        ObjectNode o = json("{'apiVersion':'flowcontrol.apiserver.k8s.io/v1','kind':'" + kind + "'}");
        o.putObject("metadata").put("name", name);
        o.set("spec", json(spec));
        return o;
    }

    static ObjectNode flowSchema(String name, String spec) {
        return object("FlowSchema", name, spec);
    }

    static ObjectNode priorityLevel(String name, String spec) {
        return object("PriorityLevelConfiguration", name, spec);
    }

    /** A valid schema for user {@code alice}, with its level and rules replaceable by callers. */
    static ObjectNode aliceSchema() {
        return flowSchema("alice", "{'priorityLevelConfiguration':{'name':'workload-low'},'rules':[{'subjects':"
                + "[{'kind':'User','user':{'name':'alice'}}],'resourceRules':[{'verbs':['get','list'],"
                + "'apiGroups':[''],'resources':['pods'],'namespaces':['default']}]}]}");
    }

    /** The messages of the create of {@code obj} (defaulted in place) through {@code strategy}. */
    static List<String> create(FlowcontrolStrategy strategy, ObjectNode obj) {
        strategy.prepareForCreate(CTX, obj);
        return strategy.validate(CTX, obj).stream().map(FieldError::message).toList();
    }
}
