package io.kubelix.runtime.flowcontrol;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.registry.DeleteOptions;
import io.kubelix.api.request.RequestContext;
import io.kubelix.runtime.controller.ServedObjects;
import io.kubelix.runtime.controller.ServedStores;
import io.kubelix.runtime.controller.informer.InformerFactory;
import io.kubelix.runtime.metrics.FlowControlMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.function.BooleanSupplier;

import static io.kubelix.runtime.flowcontrol.ConfigController.FLOW_SCHEMAS;
import static io.kubelix.runtime.flowcontrol.ConfigController.FLOW_SCHEMA_STATUS;
import static io.kubelix.runtime.flowcontrol.ConfigController.PRIORITY_LEVELS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The config producer's ensurer and the config controller over real Stores. */
class ConfigProducerTest {
    private final ServedStores served = new ServedStores();
    private final ServedObjects objects = new ServedObjects(served);
    private final PriorityAndFairness apf = new PriorityAndFairness(600, Duration.ofSeconds(15),
            new FlowControlMetrics(new PrometheusRegistry()));
    private ConfigProducer producer;
    private InformerFactory informers;
    private ConfigController controller;

    @AfterEach
    void tearDown() {
        if (controller != null) {
            controller.deactivate();
            informers.stop();
        }
        if (producer != null) {
            producer.deactivate();
        }
        served.close();
    }

    private void serve() {
        served.serve(PRIORITY_LEVELS, "PriorityLevelConfiguration", false);
        served.serve(FLOW_SCHEMAS, "FlowSchema", false);
        served.serve(FLOW_SCHEMA_STATUS, served.store(FLOW_SCHEMAS));
    }

    private ObjectNode get(String resource, String name) {
        return objects.get(resource.equals("fs") ? FLOW_SCHEMAS : PRIORITY_LEVELS, "", name);
    }

    private void edit(String resource, String name, java.util.function.Consumer<ObjectNode> change) {
        objects.update(resource.equals("fs") ? FLOW_SCHEMAS : PRIORITY_LEVELS, "", name, o -> {
            change.accept(o);
            return o;
        });
    }

    @Test
    void withoutTheResourcesTheHookCompletesAndOnceServedEveryBootstrapObjectIsCreated() throws Exception {
        producer = new ConfigProducer(apf, served);
        producer.run();
        assertFalse(objects.served(FLOW_SCHEMAS));

        serve();
        producer.run();
        for (ObjectNode pl : BootstrapConfiguration.priorityLevels()) {
            String name = pl.path("metadata").path("name").asText();
            assertEquals(pl.path("spec"), get("pl", name).path("spec"), name);
            assertEquals("true", get("pl", name).path("metadata").path("annotations")
                    .path(BootstrapConfiguration.AUTO_UPDATE_ANNOTATION).asText());
        }
        assertEquals(13, BootstrapConfiguration.flowSchemas().size());
        for (ObjectNode fs : BootstrapConfiguration.flowSchemas()) {
            String name = fs.path("metadata").path("name").asText();
            assertEquals(fs.path("spec"), get("fs", name).path("spec"), name);
        }
    }

    @Test
    void mandatoryObjectsAreKeptAndSuggestedOnesFollowTheirAnnotation() throws Exception {
        serve();
        producer = new ConfigProducer(apf, served);
        producer.run();

        edit("pl", "catch-all", o -> o.with("spec").with("limited").put("nominalConcurrencyShares", 50));
        edit("pl", "exempt", o -> o.with("spec").with("exempt").put("nominalConcurrencyShares", 7));
        edit("pl", "workload-low", o -> {
            o.with("spec").with("limited").put("nominalConcurrencyShares", 11);
            o.with("metadata").with("annotations").put(BootstrapConfiguration.AUTO_UPDATE_ANNOTATION, "false");
        });
        edit("pl", "workload-high", o -> o.with("spec").with("limited").put("nominalConcurrencyShares", 12));
        // A suggested object without the annotation, changed by someone (generation past 1), is theirs.
        edit("fs", "global-default", o -> {
            o.with("metadata").with("annotations").remove(BootstrapConfiguration.AUTO_UPDATE_ANNOTATION);
            o.with("metadata").put("generation", 2);
            o.with("spec").put("matchingPrecedence", 9800);
        });
        producer.ensure();

        assertEquals(5, get("pl", "catch-all").path("spec").path("limited").path("nominalConcurrencyShares").asInt());
        assertEquals(7, get("pl", "exempt").path("spec").path("exempt").path("nominalConcurrencyShares").asInt(),
                "the exempt level's spec.exempt is the operator's");
        assertEquals(11, get("pl", "workload-low").path("spec").path("limited").path("nominalConcurrencyShares").asInt());
        assertEquals(40, get("pl", "workload-high").path("spec").path("limited").path("nominalConcurrencyShares").asInt());
        assertEquals(9800, get("fs", "global-default").path("spec").path("matchingPrecedence").asInt());

        served.store(PRIORITY_LEVELS).delete(RequestContext.system(""), "system", DeleteOptions.DEFAULT);
        producer.ensure();
        assertEquals(30, get("pl", "system").path("spec").path("limited").path("nominalConcurrencyShares").asInt(),
                "a deleted suggested object is created again");
    }

    @Test
    void theControllerPutsTheStoredObjectsInForceAndMarksDanglingSchemas() throws Exception {
        serve();
        producer = new ConfigProducer(apf, served);
        producer.run();
        ObjectNode mine = BootstrapConfiguration.suggestedFlowSchemas().get(0).deepCopy();
        mine.with("metadata").put("name", "to-nowhere");
        mine.with("spec").with("priorityLevelConfiguration").put("name", "missing");
        objects.create(FLOW_SCHEMAS, mine);

        informers = new InformerFactory(served);
        controller = new ConfigController(apf, informers, served);
        String uid = get("fs", "global-default").path("metadata").path("uid").asText();
        RequestDigest alice = new RequestDigest(FlowSchemaMatchingTest.resource("get", "", "", "pods", ""),
                FlowSchemaMatchingTest.user("alice", "system:authenticated"));
        await(() -> apf.classify(alice).flowSchemaUID().equals(uid), "the stored global-default is in force");
        await(() -> get("fs", "to-nowhere").path("status").path("conditions").path(0).path("status").asText()
                .equals("True"), "to-nowhere is Dangling");
        ObjectNode dangling = (ObjectNode) get("fs", "to-nowhere").path("status").path("conditions").path(0);
        assertEquals("NotFound", dangling.path("reason").asText());
        assertTrue(dangling.path("message").asText().contains("\"missing\" but there is no such object"));
        await(() -> get("fs", "global-default").path("status").path("conditions").path(0).path("status").asText()
                .equals("False"), "global-default's level exists");

        served.unserve(FLOW_SCHEMAS);
        await(() -> !apf.classify(alice).flowSchemaUID().equals(uid), "without the resources, the bootstrap is in force");
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "not so after 20 s: " + what);
            Thread.sleep(20);
        }
    }

    @Test
    void containsIgnoresDefaultedFields() {
        ObjectNode wanted = BootstrapConfiguration.suggestedPriorityLevels().get(0);
        ObjectNode stored = wanted.deepCopy();
        stored.with("spec").with("limited").put("borrowingLimitPercent", 0);
        assertTrue(ConfigProducer.contains(stored.path("spec"), wanted.path("spec")));
        stored.with("spec").with("limited").with("limitResponse").with("queuing").put("queues", 3);
        assertFalse(ConfigProducer.contains(stored.path("spec"), wanted.path("spec")));
        stored.with("metadata").put("generation", 3);
        assertTrue(ConfigProducer.autoUpdate(stored), "annotated true");
        stored.with("metadata").with("annotations").put(BootstrapConfiguration.AUTO_UPDATE_ANNOTATION, "false");
        assertFalse(ConfigProducer.autoUpdate(stored));
        stored.with("metadata").with("annotations").put(BootstrapConfiguration.AUTO_UPDATE_ANNOTATION, "maybe");
        assertFalse(ConfigProducer.autoUpdate(stored), "not a boolean, and changed since its creation");
        stored.with("metadata").put("generation", 1);
        assertTrue(ConfigProducer.autoUpdate(stored), "not a boolean, and never changed");
    }
}
