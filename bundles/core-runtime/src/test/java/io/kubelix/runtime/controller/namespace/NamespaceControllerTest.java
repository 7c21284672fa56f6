package io.kubelix.runtime.controller.namespace;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.registry.CreateOptions;
import io.kubelix.api.registry.DeleteOptions;
import io.kubelix.api.registry.UpdateOptions;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.runtime.controller.ServedStores;
import io.kubelix.runtime.controller.informer.InformerFactory;
import io.kubelix.runtime.registry.GenericStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The namespace controller over real Stores: a namespace being deleted is emptied, its conditions
 * say what remains and which finalizers hold it, and it is finalized as soon as its last object
 * goes (an event, not a poll).
 */
class NamespaceControllerTest {
    private static final Duration PATIENCE = Duration.ofSeconds(20);
    private static final GroupVersionResource CONFIGMAPS = new GroupVersionResource("", "v1", "configmaps");
    private static final GroupVersionResource SECRETS = new GroupVersionResource("", "v1", "secrets");
    private final ServedStores served = new ServedStores();
    private final InformerFactory informers = new InformerFactory(served);
    private NamespaceController controller;

    @AfterEach
    void tearDown() {
        if (controller != null) {
            controller.deactivate();
        }
        informers.stop();
        served.close();
    }

    @Test
    void aDeletedNamespaceIsEmptiedReportsWhatFinalizersHoldAndIsFinalizedWhenTheLastObjectGoes() throws Exception {
        GenericStore namespaces = served.serve(NamespaceController.NAMESPACES, "Namespace", false);
        // This test's namespaces keep the status and finalize subresources on the Store itself.
        served.serve(NamespacedResourcesDeleter.NAMESPACES_STATUS, namespaces);
        served.serve(NamespacedResourcesDeleter.NAMESPACES_FINALIZE, namespaces);
        GenericStore configMaps = served.serve(CONFIGMAPS, "ConfigMap", true);
        GenericStore secrets = served.serve(SECRETS, "Secret", true);
        controller = new NamespaceController(informers, served, Clock.systemUTC(), 2);

        ObjectNode ns = object("Namespace", "", "team");
        ns.putObject("spec").putArray("finalizers").add("kubernetes");
        // A finalizer of the test's own keeps the namespace object once the controller has finalized it.
        ((ObjectNode) ns.path("metadata")).putArray("finalizers").add("test/keep");
        namespaces.create(RequestContext.system(""), ns, CreateOptions.DEFAULT);
        configMaps.create(RequestContext.system("team"), object("ConfigMap", "team", "plain"), CreateOptions.DEFAULT);
        ObjectNode held = object("ConfigMap", "team", "held");
        ((ObjectNode) held.path("metadata")).putArray("finalizers").add("example.com/hold");
        configMaps.create(RequestContext.system("team"), held, CreateOptions.DEFAULT);
        secrets.create(RequestContext.system("team"), object("Secret", "team", "s"), CreateOptions.DEFAULT);
        configMaps.create(RequestContext.system("other"), object("ConfigMap", "other", "kept"), CreateOptions.DEFAULT);

        namespaces.delete(RequestContext.system(""), "team", DeleteOptions.DEFAULT);
        ObjectNode terminating = await(namespaces, "team", n -> "True".equals(condition(n, "NamespaceContentRemaining")
                .path("status").asText()));
        assertEquals("SomeResourcesRemain", condition(terminating, "NamespaceContentRemaining").path("reason").asText());
        assertEquals("Some resources are remaining: configmaps. has 1 resource instances",
                condition(terminating, "NamespaceContentRemaining").path("message").asText());
        assertEquals("Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances",
                condition(terminating, "NamespaceFinalizersRemaining").path("message").asText());
        assertEquals("SomeFinalizersRemain", condition(terminating, "NamespaceFinalizersRemaining").path("reason").asText());
        assertEquals("False", condition(terminating, "NamespaceDeletionContentFailure").path("status").asText());
        assertEquals("ContentDeleted", condition(terminating, "NamespaceDeletionContentFailure").path("reason").asText());
        assertEquals(5, terminating.path("status").path("conditions").size());
        assertEquals("kubernetes", terminating.path("spec").path("finalizers").get(0).asText());
        assertEquals(1, configMaps.list(RequestContext.system("team"),
                io.kubelix.api.storage.ListOptions.recursiveAll()).items().size());
        assertEquals(0, secrets.list(RequestContext.system("team"),
                io.kubelix.api.storage.ListOptions.recursiveAll()).items().size());

        // The finalizer goes: the object goes, and that event alone gets the namespace finalized.
        configMaps.update(RequestContext.system("team"), "held", (ctx, cur) -> {
            ObjectNode next = cur.deepCopy();
            ((ObjectNode) next.path("metadata")).putArray("finalizers");
            return next;
        }, UpdateOptions.DEFAULT);
        ObjectNode finalized = await(namespaces, "team", n -> n.path("spec").path("finalizers").isEmpty());
        assertEquals("False", condition(finalized, "NamespaceContentRemaining").path("status").asText());
        assertEquals("ContentRemoved", condition(finalized, "NamespaceContentRemaining").path("reason").asText());
        assertEquals("All content successfully removed", condition(finalized, "NamespaceContentRemaining")
                .path("message").asText());
        assertEquals("ContentHasNoFinalizers", condition(finalized, "NamespaceFinalizersRemaining").path("reason").asText());
        assertEquals("kept", configMaps.get(RequestContext.system("other"), "kept", "").path("metadata").path("name")
                .asText(), "another namespace's content is left alone");
    }

    private static JsonNode condition(ObjectNode ns, String type) {
        for (JsonNode c : ns.path("status").path("conditions")) {
            if (type.equals(c.path("type").asText())) {
                return c;
            }
        }
        return JsonNodeFactory.instance.objectNode();
    }

    private static ObjectNode object(String kind, String namespace, String name) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("apiVersion", "v1").put("kind", kind);
        ObjectNode meta = o.putObject("metadata").put("name", name);
        if (!namespace.isEmpty()) {
            meta.put("namespace", namespace);
        }
        return o;
    }

    private static ObjectNode await(GenericStore store, String name, Predicate<ObjectNode> wanted) throws Exception {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        ObjectNode last = null;
        while (System.nanoTime() < deadline) {
            try {
                last = store.get(RequestContext.system(""), name, "");
                if (wanted.test(last)) {
                    return last;
                }
            } catch (StatusException e) {
                // not there
            }
            Thread.sleep(10);
        }
        throw new AssertionError(name + " never became what was expected; last: " + last);
    }
}
