package io.kubelix.resource.networking;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.request.RequestContext;

import java.util.List;

final class Fixtures {
    static final RequestContext CTX = RequestContext.system("default");
    private static final ObjectMapper MAPPER = new ObjectMapper().configure(JsonParser.Feature.ALLOW_SINGLE_QUOTES, true);

    private Fixtures() {
    }

    static ObjectNode json(String json) {
        try {
            return (ObjectNode) MAPPER.readTree(json.replace('\'', '"'));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(json, e);
        }
    }

    /** What {@code kubectl create ingress web --rule=foo.com/bar=svc1:8080} sends. */
    static ObjectNode ingress() {
        return json("{'apiVersion':'networking.k8s.io/v1','kind':'Ingress','metadata':{'name':'web'},'spec':{'rules':[{"
                + "'host':'foo.com','http':{'paths':[{'path':'/bar','pathType':'Exact','backend':{'service':{'name':'svc1',"
                + "'port':{'number':8080}}}}]}}]},'status':{'loadBalancer':{}}}");
    }

    static List<String> create(RESTCreateStrategy strategy, ObjectNode obj) {
        strategy.prepareForCreate(CTX, obj);
        return strategy.validate(CTX, obj).stream().map(FieldError::message).toList();
    }
}
