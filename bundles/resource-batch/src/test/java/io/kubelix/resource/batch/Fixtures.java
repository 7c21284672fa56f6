package io.kubelix.resource.batch;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.request.RequestContext;

import java.util.List;

/** Batch objects as kubectl sends them, and the strategy calls the generic Store makes. */
final class Fixtures {
    static final RequestContext CTX = RequestContext.system("default");
    static final String UID = "3f1c6c1e-0b7d-4f7a-9d55-1a2b3c4d5e6f";
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

    /** What {@code kubectl create job <name> --image=busybox} sends. */
    static ObjectNode job(String name) {
        return json("{'apiVersion':'batch/v1','kind':'Job','metadata':{'name':'" + name + "'},'spec':{'template':{"
                + "'metadata':{},'spec':{'containers':[{'name':'" + name + "','image':'busybox','resources':{}}],"
                + "'restartPolicy':'Never'}}},'status':{}}");
    }

    /** What {@code kubectl create cronjob <name> --image=busybox --schedule=<schedule>} sends. */
    static ObjectNode cronJob(String name, String schedule) {
        return json("{'apiVersion':'batch/v1','kind':'CronJob','metadata':{'name':'" + name + "'},'spec':{'schedule':'"
                + schedule + "','jobTemplate':{'metadata':{'name':'" + name + "'},'spec':{'template':{'metadata':{},"
                + "'spec':{'containers':[{'name':'" + name + "','image':'busybox','resources':{}}],"
                + "'restartPolicy':'OnFailure'}}}}},'status':{}}");
    }

    /** prepareForCreate, the uid the Store sets, then validate; the messages of the field errors. */
    static List<String> create(RESTCreateStrategy strategy, ObjectNode obj) {
        strategy.prepareForCreate(CTX, obj);
        ((ObjectNode) obj.path("metadata")).put("uid", UID);
        return messages(strategy.validate(CTX, obj));
    }

    /** prepareForUpdate then validateUpdate; the messages of the field errors. */
    static List<String> update(RESTUpdateStrategy strategy, ObjectNode obj, ObjectNode old) {
        strategy.prepareForUpdate(CTX, obj, old);
        return messages(strategy.validateUpdate(CTX, obj, old));
    }

    static List<String> messages(List<FieldError> errs) {
        return errs.stream().map(FieldError::message).toList();
    }
}
