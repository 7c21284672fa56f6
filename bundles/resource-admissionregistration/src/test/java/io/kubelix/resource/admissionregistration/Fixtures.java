package io.kubelix.resource.admissionregistration;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.request.RequestContext;

import java.util.List;

/** Admission configurations as kubectl sends them, and the strategy calls the generic Store makes. */
final class Fixtures {
    static final RequestContext CTX = RequestContext.system("default");
    static final ObjectMapper MAPPER = new ObjectMapper().configure(JsonParser.Feature.ALLOW_SINGLE_QUOTES, true);

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

    /** prepareForCreate then validate, as the Store runs them; the messages of the field errors. */
    static List<String> create(RESTCreateStrategy strategy, ObjectNode obj) {
        strategy.prepareForCreate(CTX, obj);
        return strategy.validate(CTX, obj).stream().map(FieldError::message).toList();
    }

    /** prepareForUpdate then validateUpdate; the messages of the field errors. */
    static List<String> update(RESTUpdateStrategy strategy, ObjectNode obj, ObjectNode old) {
        strategy.prepareForUpdate(CTX, obj, old);
        return strategy.validateUpdate(CTX, obj, old).stream().map(FieldError::message).toList();
    }
}
