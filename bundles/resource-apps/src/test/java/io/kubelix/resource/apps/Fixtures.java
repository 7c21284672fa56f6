package io.kubelix.resource.apps;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.request.RequestContext;

import java.util.List;

/** Workloads as kubectl sends them, and the strategy calls the generic Store makes on create. */
final class Fixtures {
    static final RequestContext CTX = RequestContext.system("default");
    private static final ObjectMapper MAPPER = new ObjectMapper().configure(JsonParser.Feature.ALLOW_SINGLE_QUOTES, true);

    private Fixtures() {
    }

    /** JSON with single quotes. */
    static ObjectNode json(String json) {
        try {
            return (ObjectNode) MAPPER.readTree(json.replace('\'', '"'));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(json, e);
        }
    }

    /** What {@code kubectl create deployment web --image=nginx --replicas=2} sends, with {@code kind}'s name. */
    static ObjectNode workload(String kind, String name) {
        return json("{'apiVersion':'apps/v1','kind':'" + kind + "','metadata':{'name':'" + name + "','labels':{'app':'"
                + name + "'}},'spec':{'replicas':2,'selector':{'matchLabels':{'app':'" + name + "'}},'strategy':{},"
                + "'template':{'metadata':{'labels':{'app':'" + name + "'},'creationTimestamp':null},'spec':{"
                + "'containers':[{'name':'nginx','image':'nginx','resources':{}}]}}},'status':{}}");
    }

    /** prepareForCreate then validate, as the Store runs them; the messages of the field errors. */
    static List<String> create(RESTCreateStrategy strategy, ObjectNode obj) {
        strategy.prepareForCreate(CTX, obj);
        return strategy.validate(CTX, obj).stream().map(FieldError::message).toList();
    }
}
