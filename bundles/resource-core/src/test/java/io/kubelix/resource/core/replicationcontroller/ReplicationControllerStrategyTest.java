package io.kubelix.resource.core.replicationcontroller;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.request.RequestContext;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.kubelix.resource.core.testing.Json.obj;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Replication controllers: kube's defaults and validation. */
class ReplicationControllerStrategyTest {
    private static final RequestContext CTX = RequestContext.system("default");
    private final ReplicationControllerStrategy strategy = new ReplicationControllerStrategy();

    private ObjectNode created(String json) {
        ObjectNode rc = obj(json);
        strategy.prepareForCreate(CTX, rc);
        return rc;
    }

    private List<String> errors(String json) {
        return strategy.validate(CTX, created(json)).stream().map(FieldError::message).toList();
    }

    @Test
    void replicasSelectorAndLabelsDefaultFromTheTemplate() {
        ObjectNode rc = created("{'metadata':{'name':'web'},'spec':{'template':{'metadata':{'labels':{'app':'web'}},"
                + "'spec':{'containers':[{'name':'nginx','image':'nginx'}]}}}}");
        assertEquals(1, rc.path("spec").path("replicas").asInt());
        assertEquals("web", rc.path("spec").path("selector").path("app").asText());
        assertEquals("web", rc.path("metadata").path("labels").path("app").asText());
        assertEquals("Always", rc.path("spec").path("template").path("spec").path("restartPolicy").asText());
        assertEquals("Always", rc.path("spec").path("template").path("spec").path("containers").get(0)
                .path("imagePullPolicy").asText());
        assertEquals(0, rc.path("status").path("replicas").asInt(-1));
        assertTrue(strategy.validate(CTX, rc).isEmpty(), String.valueOf(strategy.validate(CTX, rc)));
    }

    @Test
    void validation() {
        assertEquals(List.of("spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"web\"}: "
                + "`selector` does not match template `labels`"), errors("{'spec':{'selector':{'app':'db'},'template':"
                + "{'metadata':{'labels':{'app':'web'}},'spec':{'containers':[{'name':'a','image':'a'}]}}}}"));
        assertEquals(List.of("spec.replicas: Invalid value: -1: must be greater than or equal to 0"),
                errors("{'spec':{'replicas':-1,'template':{'metadata':{'labels':{'app':'web'}},'spec':{'containers':"
                        + "[{'name':'a','image':'a'}]}}}}"));
        assertEquals(List.of("spec.template.spec.restartPolicy: Unsupported value: \"Never\": supported values: \"Always\""),
                errors("{'spec':{'template':{'metadata':{'labels':{'app':'web'}},'spec':{'restartPolicy':'Never',"
                        + "'containers':[{'name':'a','image':'a'}]}}}}"));
        assertEquals(List.of("spec.selector: Required value", "spec.template: Required value"), errors("{'spec':{}}"));
        assertEquals(List.of("spec.template.spec.containers: Required value"),
                errors("{'spec':{'template':{'metadata':{'labels':{'app':'web'}},'spec':{}}}}"));
    }

    @Test
    void theStatusSubresourceKeepsTheSpecAndChecksTheCounts() {
        ReplicationControllerStrategy.Status status = new ReplicationControllerStrategy.Status();
        ObjectNode old = created("{'spec':{'replicas':2,'template':{'metadata':{'labels':{'a':'b'}},'spec':{'containers':"
                + "[{'name':'a','image':'a'}]}}}}");
        ObjectNode update = obj("{'spec':{'replicas':9},'status':{'replicas':2,'readyReplicas':3}}");
        status.prepareForUpdate(CTX, update, old);
        assertEquals(2, update.path("spec").path("replicas").asInt());
        assertEquals(List.of("status.readyReplicas: Invalid value: 3: cannot be greater than status.replicas"),
                status.validateUpdate(CTX, update, old).stream().map(FieldError::message).toList());
    }
}
