package io.kubelix.resource.core.pod;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.registry.CreateOptions;
import io.kubelix.api.registry.StatusStorage;
import io.kubelix.api.registry.UpdateOptions;
import io.kubelix.api.registry.UpdateResult;
import io.kubelix.api.registry.UpdatedObjectInfo;
import io.kubelix.api.request.RequestContext;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static io.kubelix.resource.core.testing.Json.obj;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** pods/binding: bound once, with kube's 409, 404, 400 and 422 answers. */
class PodBindingRESTTest {
    private static final RequestContext CTX = RequestContext.system("default");

    /** The pods as the Store behind the binding would update them. */
    private final Map<String, ObjectNode> pods = new HashMap<>();
    private final PodBindingREST binding = new PodBindingREST(new StatusStorage() {
        @Override
        public ObjectNode get(RequestContext ctx, String name, String resourceVersion) {
            return pods.get(name);
        }

        @Override
        public UpdateResult update(RequestContext ctx, String name, UpdatedObjectInfo objInfo, UpdateOptions options) {
            ObjectNode updated = objInfo.updatedObject(ctx, pods.get(name) == null ? null : pods.get(name).deepCopy());
            if (!options.dryRun()) {
                pods.put(name, updated);
            }
            return new UpdateResult(updated, false);
        }

        @Override
        public String kind() {
            return "Pod";
        }

        @Override
        public boolean namespaced() {
            return true;
        }

        @Override
        public String singularName() {
            return "";
        }
    });

    private static ObjectNode bindingTo(String pod, String node) {
        return obj("{'apiVersion':'v1','kind':'Binding','metadata':{'name':'" + pod + "','annotations':{'scheduled-by':'me'}},"
                + "'target':{'apiVersion':'v1','kind':'Node','name':'" + node + "'}}");
    }

    private void addPod(String name) {
        pods.put(name, obj("{'metadata':{'name':'" + name + "','uid':'u1','resourceVersion':'5'},'spec':{'containers':"
                + "[{'name':'a','image':'a'}]},'status':{'phase':'Pending','conditions':[]}}"));
    }

    @Test
    void bindingSetsTheNodeOnceAndAnswersSuccess() {
        addPod("web");
        ObjectNode status = binding.create(CTX, "web", bindingTo("web", "node-1"), CreateOptions.DEFAULT);
        assertEquals("Status", status.path("kind").asText());
        assertEquals("Success", status.path("status").asText());
        ObjectNode pod = pods.get("web");
        assertEquals("node-1", pod.path("spec").path("nodeName").asText());
        assertEquals("me", pod.path("metadata").path("annotations").path("scheduled-by").asText());
        assertEquals("PodScheduled", pod.path("status").path("conditions").get(0).path("type").asText());
        assertEquals("True", pod.path("status").path("conditions").get(0).path("status").asText());

        StatusException again = assertThrows(StatusException.class,
                () -> binding.create(CTX, "web", bindingTo("web", "node-2"), CreateOptions.DEFAULT));
        assertEquals(409, again.code());
        assertEquals("Operation cannot be fulfilled on pods/binding \"web\": pod web is already assigned to node \"node-1\"",
                again.getMessage());
        assertEquals("node-1", pods.get("web").path("spec").path("nodeName").asText());
    }

    @Test
    void aMissingPodIsNotFound() {
        StatusException e = assertThrows(StatusException.class,
                () -> binding.create(CTX, "ghost", bindingTo("ghost", "n"), CreateOptions.DEFAULT));
        assertEquals(404, e.code());
        assertEquals("pods \"ghost\" not found", e.getMessage());
    }

    @Test
    void badBindings() {
        addPod("web");
        StatusException mismatch = assertThrows(StatusException.class,
                () -> binding.create(CTX, "web", bindingTo("other", "n"), CreateOptions.DEFAULT));
        assertEquals(400, mismatch.code());
        assertEquals("name in URL does not match name in Binding object", mismatch.getMessage());
        StatusException noTarget = assertThrows(StatusException.class,
                () -> binding.create(CTX, "web", obj("{'metadata':{'name':'web'},'target':{}}"), CreateOptions.DEFAULT));
        assertEquals(422, noTarget.code());
        assertEquals("Binding \"web\" is invalid: target.name: Required value", noTarget.getMessage());
        assertTrue(pods.get("web").path("spec").path("nodeName").isMissingNode());
    }

    @Test
    void preconditionsDeletionAndGates() {
        addPod("web");
        ObjectNode wrongUid = bindingTo("web", "n");
        ((ObjectNode) wrongUid.path("metadata")).put("uid", "other");
        assertEquals(409, assertThrows(StatusException.class, () -> binding.create(CTX, "web", wrongUid, CreateOptions.DEFAULT)).code());
        ((ObjectNode) pods.get("web").path("metadata")).put("deletionTimestamp", "2026-01-01T00:00:00Z");
        StatusException deleting = assertThrows(StatusException.class,
                () -> binding.create(CTX, "web", bindingTo("web", "n"), CreateOptions.DEFAULT));
        assertTrue(deleting.getMessage().endsWith("pod web is being deleted, cannot be assigned to a host"), deleting.getMessage());
        addPod("gated");
        ((ObjectNode) pods.get("gated").path("spec")).putArray("schedulingGates").addObject().put("name", "g");
        assertEquals(409, assertThrows(StatusException.class,
                () -> binding.create(CTX, "gated", bindingTo("gated", "n"), CreateOptions.DEFAULT)).code());
    }

    @Test
    void aDryRunBindsNothing() {
        addPod("web");
        binding.create(CTX, "web", bindingTo("web", "n"), new CreateOptions(true, null));
        assertTrue(pods.get("web").path("spec").path("nodeName").isMissingNode());
    }
}
