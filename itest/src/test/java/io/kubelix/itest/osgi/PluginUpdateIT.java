package io.kubelix.itest.osgi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubelix.itest.osgi.ApiClient.Response;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.Configuration;
import org.ops4j.pax.exam.Option;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;

import javax.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * Objects outlive the resource bundle that serves them: storage belongs to storage-memory and
 * core-runtime, so a configmap created before resource-core is stopped, or updated in place, is
 * served unchanged once the bundle is back — and not served while it is away. They outlive an
 * update of storage-memory too.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class PluginUpdateIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CONFIGMAPS = "/api/v1/namespaces/default/configmaps";

    @Inject
    private BundleContext context;

    private ApiClient api;

    @Configuration
    public Option[] configure() {
        return KubelixContainer.container(PluginUpdateIT.class);
    }

    @Before
    public void serverIsUp() {
        api = new ApiClient(context);
        api.awaitReady(TIMEOUT);
        ApiClient.await(TIMEOUT, "namespace default", () -> api.get("/api/v1/namespaces/default"), r -> r.status() == 200);
    }

    @Test
    public void configMapSurvivesStopAndStartOfResourceCore() throws Exception {
        JsonNode created = createConfigMap("survives-restart");
        Bundle resourceCore = Bundles.kubelix(context, KubelixContainer.PLUGIN_RESOURCE_CORE);

        resourceCore.stop();
        assertConfigMapsNotServed("survives-restart");

        resourceCore.start();
        assertServedUnchanged(created);
    }

    @Test
    public void configMapSurvivesUpdateOfResourceCore() throws Exception {
        JsonNode created = createConfigMap("survives-update");
        Bundle resourceCore = Bundles.kubelix(context, KubelixContainer.PLUGIN_RESOURCE_CORE);
        long before = resourceCore.getLastModified();

        resourceCore.update();
        assertTrue("bundle updated", resourceCore.getLastModified() > before);
        assertEquals(Bundle.ACTIVE, resourceCore.getState());
        assertServedUnchanged(created);
    }

    /**
     * The memory storage hands its objects to its next version through the bundle's data area, so
     * updating storage-memory keeps every object with its resourceVersion, and writes go on.
     */
    @Test
    public void configMapSurvivesUpdateOfStorageMemory() throws Exception {
        JsonNode created = createConfigMap("survives-storage-update");
        Bundle storage = Bundles.kubelix(context, KubelixContainer.PLUGIN_STORAGE_MEMORY);

        storage.update();
        assertEquals(Bundle.ACTIVE, storage.getState());
        assertServedUnchanged(created);
        Response after = ApiClient.await(TIMEOUT, "a configmap created after the update",
                () -> api.post(CONFIGMAPS, "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":"
                        + "\"after-storage-update\"}}"), r -> r.status() == 201);
        assertTrue(after.toString(), Long.parseLong(after.json().path("metadata").path("resourceVersion").asText())
                > Long.parseLong(created.path("metadata").path("resourceVersion").asText()));
    }

    /**
     * core-runtime owns storage, Cacher and open watches, so a watch opened before resource-core is
     * updated keeps streaming: it sees a configmap created through the updated bundle.
     */
    @Test
    public void watchKeepsStreamingAcrossUpdateOfResourceCore() throws Exception {
        try (ApiClient.Watch watch = api.watch(CONFIGMAPS + "?watch=1")) {
            assertEquals(200, watch.status(TIMEOUT));
            BlockingQueue<String> events = watch.lines();
            createConfigMap("before-update");
            assertEvent(events, "ADDED", "before-update");

            Bundle resourceCore = Bundles.kubelix(context, KubelixContainer.PLUGIN_RESOURCE_CORE);
            resourceCore.update();
            ApiClient.await(TIMEOUT, "configmaps served after the update", () -> api.get(CONFIGMAPS), r -> r.status() == 200);

            createConfigMap("after-update");
            assertEvent(events, "ADDED", "after-update");
        }
    }

    private static void assertEvent(BlockingQueue<String> events, String type, String name) throws Exception {
        List<String> seen = new ArrayList<>();
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            String line = events.poll(100, TimeUnit.MILLISECONDS);
            if (line == null || line.isBlank()) {
                continue;
            }
            seen.add(line);
            JsonNode event = JSON.readTree(line);
            if (type.equals(event.path("type").asText())
                    && name.equals(event.path("object").path("metadata").path("name").asText())) {
                return;
            }
        }
        throw new AssertionError("no " + type + " event for " + name + " within " + TIMEOUT.toSeconds() + "s; events: " + seen);
    }

    /** A failed test must not leave the next one without resource-core. */
    @After
    public void resourceCoreActive() throws Exception {
        Bundle resourceCore = Bundles.kubelix(context, KubelixContainer.PLUGIN_RESOURCE_CORE);
        if (resourceCore.getState() != Bundle.ACTIVE) {
            resourceCore.start();
        }
    }

    private JsonNode createConfigMap(String name) {
        Response created = api.post(CONFIGMAPS, "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\""
                + name + "\"},\"data\":{\"greeting\":\"hello\"}}");
        assertEquals(created.toString(), 201, created.status());
        assertFalse(created.toString(), created.json().path("metadata").path("uid").asText().isEmpty());
        return created.json();
    }

    private void assertConfigMapsNotServed(String name) {
        Response gone = ApiClient.await(TIMEOUT, "configmaps no longer served", () -> api.get(CONFIGMAPS + "/" + name),
                r -> r.status() == 404);
        assertEquals("NotFound", gone.statusReason());
        // resource-core serves the whole core group: /api/v1 is either gone or lists no configmaps
        Response v1 = api.get("/api/v1");
        assertTrue(v1.toString(), v1.status() == 404 || v1.status() == 200 && !resourceNames(v1.json()).contains("configmaps"));
    }

    private void assertServedUnchanged(JsonNode created) {
        String name = created.path("metadata").path("name").asText();
        Response back = ApiClient.await(TIMEOUT, "configmap " + name + " served again",
                () -> api.get(CONFIGMAPS + "/" + name), r -> r.status() == 200);
        JsonNode meta = back.json().path("metadata");
        assertEquals(created.path("metadata").path("uid").asText(), meta.path("uid").asText());
        assertEquals(created.path("metadata").path("resourceVersion").asText(), meta.path("resourceVersion").asText());
        assertEquals(created.path("metadata").path("creationTimestamp").asText(), meta.path("creationTimestamp").asText());
        assertEquals("hello", back.json().path("data").path("greeting").asText());
        Response v1 = api.get("/api/v1");
        assertTrue(v1.toString(), resourceNames(v1.json()).contains("configmaps"));
    }

    private static List<String> resourceNames(JsonNode apiResourceList) {
        List<String> names = new ArrayList<>();
        apiResourceList.path("resources").forEach(r -> names.add(r.path("name").asText()));
        return names;
    }
}
