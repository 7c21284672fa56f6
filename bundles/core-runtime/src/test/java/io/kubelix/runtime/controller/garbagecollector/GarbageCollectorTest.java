package io.kubelix.runtime.controller.garbagecollector;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.registry.CreateOptions;
import io.kubelix.api.registry.DeleteOptions;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.runtime.controller.ServedStores;
import io.kubelix.runtime.controller.informer.InformerFactory;
import io.kubelix.runtime.registry.GenericStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The collector on its dependency graph, over real Stores: cascades, and resources that arrive after it started. */
class GarbageCollectorTest {
    private static final Duration PATIENCE = Duration.ofSeconds(20);
    private static final GroupVersionResource CONFIGMAPS = new GroupVersionResource("", "v1", "configmaps");
    private static final GroupVersionResource WIDGETS = new GroupVersionResource("example.com", "v1", "widgets");
    private final ServedStores served = new ServedStores();
    private final InformerFactory informers = new InformerFactory(served);
    private GarbageCollector collector;

    @AfterEach
    void tearDown() {
        if (collector != null) {
            collector.deactivate();
        }
        informers.stop();
        served.close();
    }

    private static ObjectNode object(String kind, String name, ObjectNode owner) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("apiVersion", "v1").put("kind", kind);
        ObjectNode meta = o.putObject("metadata").put("name", name).put("namespace", "default");
        if (owner != null) {
            meta.putArray("ownerReferences").addObject().put("apiVersion", owner.path("apiVersion").asText())
                    .put("kind", owner.path("kind").asText()).put("name", owner.path("metadata").path("name").asText())
                    .put("uid", owner.path("metadata").path("uid").asText());
        }
        return o;
    }

    private static ObjectNode create(GenericStore store, ObjectNode o) {
        return store.create(RequestContext.system("default"), o, CreateOptions.DEFAULT);
    }

    private static void awaitGone(GenericStore store, String name) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                store.get(RequestContext.system("default"), name, "");
            } catch (StatusException e) {
                if (e.code() == 404) {
                    return;
                }
            }
            Thread.sleep(10);
        }
        throw new AssertionError(name + " was never collected");
    }

    @Test
    void aChainOfDependentsIsCollectedLinkByLinkAsEachOwnerGoes() throws Exception {
        GenericStore configMaps = served.serve(CONFIGMAPS, "ConfigMap", true);
        collector = new GarbageCollector(informers, served, 2);
        ObjectNode a = create(configMaps, object("ConfigMap", "a", null));
        ObjectNode b = create(configMaps, object("ConfigMap", "b", a));
        create(configMaps, object("ConfigMap", "c", b));
        create(configMaps, object("ConfigMap", "bystander", null));

        configMaps.delete(RequestContext.system("default"), "a", DeleteOptions.DEFAULT);
        awaitGone(configMaps, "b");
        awaitGone(configMaps, "c");
        assertEquals("bystander", configMaps.get(RequestContext.system("default"), "bystander", "")
                .path("metadata").path("name").asText());
    }

    /**
     * The owner's deletion is handled while the dependents' informer has not delivered the dependent
     * yet: the collector waits for that informer to reach the owner's revision before it decides
     * there is no dependent to wait for.
     */
    @Test
    void aForegroundOwnerWaitsForADependentItsInformerHasNotDeliveredYet() throws Exception {
        GenericStore widgets = deleteOwnerOfALateDependent(DeleteOptions.PROPAGATION_FOREGROUND, true);
        assertEquals(404, status(widgets, "dependent"), "the dependent went before its owner");
    }

    /** As above with the orphan finalizer: the late dependent loses its reference and stays. */
    @Test
    void anOrphaningOwnerWaitsForADependentItsInformerHasNotDeliveredYet() throws Exception {
        GenericStore widgets = deleteOwnerOfALateDependent(DeleteOptions.PROPAGATION_ORPHAN, false);
        ObjectNode kept = widgets.get(RequestContext.system("default"), "dependent", "");
        assertTrue(kept.path("metadata").path("ownerReferences").isMissingNode(), kept.toString());
        // Later events of the dependent change nothing: it is no one's dependent now.
        Thread.sleep(1_000);
        assertEquals(200, status(widgets, "dependent"));
    }

    /**
     * A configmap owning a widget whose informer delivers every event 500 ms late, deleted with
     * {@code policy}; returns the widgets' Store once the owner is gone.
     */
    private GenericStore deleteOwnerOfALateDependent(String policy, boolean blockOwnerDeletion) throws Exception {
        GenericStore configMaps = served.serve(CONFIGMAPS, "ConfigMap", true);
        GenericStore widgets = served.serveWithSlowWatches(WIDGETS, "Widget", true, Duration.ofMillis(500));
        collector = new GarbageCollector(informers, served, 2);
        ObjectNode owner = create(configMaps, object("ConfigMap", "owner", null));
        create(widgets, widget("dependent", owner, blockOwnerDeletion));

        configMaps.delete(RequestContext.system("default"), "owner", new DeleteOptions(false, null, null, policy));
        awaitGone(configMaps, "owner");
        return widgets;
    }

    private static ObjectNode widget(String name, ObjectNode owner, boolean blockOwnerDeletion) {
        ObjectNode w = object("Widget", name, owner);
        w.put("apiVersion", "example.com/v1");
        if (blockOwnerDeletion) {
            ((ObjectNode) w.path("metadata").path("ownerReferences").get(0)).put("blockOwnerDeletion", true);
        }
        return w;
    }

    private static int status(GenericStore store, String name) {
        try {
            store.get(RequestContext.system("default"), name, "");
            return 200;
        } catch (StatusException e) {
            return e.code();
        }
    }

    @Test
    void aResourceServedAfterTheCollectorStartedIsFollowed() throws Exception {
        GenericStore configMaps = served.serve(CONFIGMAPS, "ConfigMap", true);
        collector = new GarbageCollector(informers, served, 2);
        ObjectNode owner = create(configMaps, object("ConfigMap", "owner", null));

        GenericStore widgets = served.serve(WIDGETS, "Widget", true);
        ObjectNode widget = object("Widget", "dependent", owner);
        widget.put("apiVersion", "example.com/v1");
        create(widgets, widget);
        configMaps.delete(RequestContext.system("default"), "owner", DeleteOptions.DEFAULT);
        awaitGone(widgets, "dependent");
    }
}
