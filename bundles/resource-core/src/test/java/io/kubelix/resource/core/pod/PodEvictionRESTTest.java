package io.kubelix.resource.core.pod;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.registry.CreateOptions;
import io.kubelix.api.registry.DeleteOptions;
import io.kubelix.api.registry.DeleteResult;
import io.kubelix.api.registry.Getter;
import io.kubelix.api.registry.GracefulDeleter;
import io.kubelix.api.registry.UpdateOptions;
import io.kubelix.api.registry.UpdateResult;
import io.kubelix.api.registry.UpdatedObjectInfo;
import io.kubelix.api.registry.Updater;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupVersion;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.kubelix.resource.core.testing.Json.obj;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** pods/eviction: the pod is deleted with the eviction's DeleteOptions. */
class PodEvictionRESTTest {
    private static final RequestContext CTX = RequestContext.system("default");

    private final Map<String, ObjectNode> pods = new HashMap<>();
    private final List<DeleteOptions> deletes = new ArrayList<>();
    private final Pods fake = new Pods();
    private final PodEvictionREST eviction = new PodEvictionREST(fake, fake);
    /** What each deleted pod looked like when it went. */
    private final List<ObjectNode> deleted = new ArrayList<>();

    /** Pods that record how they were deleted; an update (the status subresource's) writes resourceVersion 9. */
    private final class Pods implements Getter, GracefulDeleter, Updater {
        @Override
        public UpdateResult update(RequestContext ctx, String name, UpdatedObjectInfo info, UpdateOptions options) {
            ObjectNode updated = info.updatedObject(ctx, pods.get(name));
            ((ObjectNode) updated.path("metadata")).put("resourceVersion", "9");
            pods.put(name, updated);
            return new UpdateResult(updated, false);
        }

        @Override
        public ObjectNode get(RequestContext ctx, String name, String resourceVersion) {
            ObjectNode pod = pods.get(name);
            if (pod == null) {
                throw StatusException.notFound(PodStorage.PODS, name);
            }
            return pod;
        }

        @Override
        public DeleteResult delete(RequestContext ctx, String name, DeleteOptions options) {
            deletes.add(options);
            deleted.add(pods.get(name));
            return new DeleteResult(pods.remove(name), true);
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
            return "pod";
        }
    }

    @Test
    void anEvictionDeletesThePodWithItsDeleteOptions() {
        pods.put("web", obj("{'metadata':{'name':'web'}}"));
        ObjectNode status = eviction.create(CTX, "web", obj("{'apiVersion':'policy/v1','kind':'Eviction','metadata':"
                + "{'name':'web'},'deleteOptions':{'gracePeriodSeconds':7,'preconditions':{'uid':'u1'}}}"), CreateOptions.DEFAULT);
        assertEquals("Success", status.path("status").asText());
        assertTrue(pods.isEmpty());
        assertEquals(7L, deletes.get(0).gracePeriodSeconds());
        assertEquals("u1", deletes.get(0).preconditions().uid());
        ObjectNode condition = (ObjectNode) deleted.get(0).path("status").path("conditions").get(0);
        assertEquals("DisruptionTarget", condition.path("type").asText());
        assertEquals("True", condition.path("status").asText());
        assertEquals("EvictionByEvictionAPI", condition.path("reason").asText());
        assertEquals("Eviction API: evicting", condition.path("message").asText());
    }

    @Test
    void aResourceVersionPreconditionMovesToTheConditionsWrite() {
        pods.put("web", obj("{'metadata':{'name':'web','resourceVersion':'4'}}"));
        eviction.create(CTX, "web", obj("{'metadata':{'name':'web'},'deleteOptions':{'preconditions':{'resourceVersion':'4'}}}"),
                CreateOptions.DEFAULT);
        assertEquals("9", deletes.get(0).preconditions().resourceVersion());
        assertEquals("policy/v1", eviction.groupVersionKind(new GroupVersion("", "v1")).groupVersion().apiVersion());
    }

    @Test
    void withoutOptionsThePodsOwnGracePeriodApplies() {
        pods.put("web", obj("{'metadata':{'name':'web'}}"));
        eviction.create(CTX, "web", obj("{'metadata':{'name':'web'}}"), new CreateOptions(true, null));
        assertEquals(null, deletes.get(0).gracePeriodSeconds());
        assertTrue(deletes.get(0).dryRun(), "the request's dry run carries over");
        assertTrue(deleted.get(0).path("status").isMissingNode(), "a dry run writes no condition");
    }

    @Test
    void aMissingPodOrAnotherNameIsRefused() {
        assertEquals(404, assertThrows(StatusException.class,
                () -> eviction.create(CTX, "ghost", obj("{'metadata':{'name':'ghost'}}"), CreateOptions.DEFAULT)).code());
        StatusException e = assertThrows(StatusException.class,
                () -> eviction.create(CTX, "web", obj("{'metadata':{'name':'other'}}"), CreateOptions.DEFAULT));
        assertEquals(400, e.code());
        assertEquals("name in URL does not match name in Eviction object", e.getMessage());
        assertTrue(deletes.isEmpty());
    }
}
