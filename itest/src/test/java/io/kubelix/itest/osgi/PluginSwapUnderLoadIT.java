package io.kubelix.itest.osgi;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.itest.osgi.ApiClient.Response;
import io.kubelix.itest.osgi.SwapUnderLoad.Load;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.ops4j.pax.exam.Configuration;
import org.ops4j.pax.exam.Option;
import org.ops4j.pax.exam.junit.PaxExam;
import org.ops4j.pax.exam.spi.reactors.ExamReactorStrategy;
import org.ops4j.pax.exam.spi.reactors.PerClass;
import org.osgi.framework.BundleContext;

import javax.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.kubelix.itest.osgi.SwapUnderLoad.REQUESTS_BETWEEN_SWAPS;
import static io.kubelix.itest.osgi.SwapUnderLoad.TIMEOUT;
import static io.kubelix.itest.osgi.SwapUnderLoad.assertWatchesGotEveryAddOnceInOrder;
import static io.kubelix.itest.osgi.SwapUnderLoad.openWatches;
import static io.kubelix.itest.osgi.SwapUnderLoad.swapThreeTimes;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * Plugins swapped while clients work: bundles are updated as FileInstall updates a jar dropped
 * into {@code plugins/} ({@code Bundle.update()}, then a refresh of that bundle), under a steady
 * load of creates, gets and lists with 100 watches open. Nobody using the server may notice: no
 * request fails, no watch ends, every watch gets every event once and in order, and no other
 * bundle is stopped or refreshed.
 */
@RunWith(PaxExam.class)
@ExamReactorStrategy(PerClass.class)
public class PluginSwapUnderLoadIT {
    private static final String NAMESPACE = "swap-load";
    private static final String CONFIGMAPS = "/api/v1/namespaces/" + NAMESPACE + "/configmaps";
    private static final String WIDGETS = "/apis/sample.kubelix.io/v1/namespaces/" + NAMESPACE + "/widgets";

    @Inject
    private BundleContext context;

    private ApiClient api;
    private final List<ApiClient.Watch> watches = new ArrayList<>();

    @Configuration
    public Option[] configure() {
        return KubelixContainer.container(PluginSwapUnderLoadIT.class);
    }

    @Before
    public void serverIsUp() throws Exception {
        api = new ApiClient(context);
        api.awaitReady(TIMEOUT);
        ApiClient.await(TIMEOUT, "namespace default", () -> api.get("/api/v1/namespaces/default"), r -> r.status() == 200);
        if (api.get("/api/v1/namespaces/" + NAMESPACE).status() == 404) {
            Response ns = api.post("/api/v1/namespaces",
                    "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + NAMESPACE + "\"}}");
            assertEquals(ns.toString(), 201, ns.status());
        }
        if (Bundles.find(context, KubelixContainer.SAMPLE_RESOURCE) == null) {
            context.installBundle(KubelixContainer.reactorBundleLocation(KubelixContainer.SAMPLE_RESOURCE)).start();
        }
        ApiClient.await(TIMEOUT, "widgets served", () -> api.get(WIDGETS), r -> r.status() == 200);
    }

    @After
    public void closeWatches() {
        watches.forEach(ApiClient.Watch::close);
    }

    @Test
    public void resourceBundleUpdatesUnderLoadFailNoRequestAndEndNoWatch() throws Exception {
        Map<String, List<ApiClient.Watch>> watched = Map.of(
                CONFIGMAPS, openWatches(api, CONFIGMAPS, watches),
                WIDGETS, openWatches(api, WIDGETS, watches));
        Load load = new Load(i -> List.of(
                () -> api.post(CONFIGMAPS, configMap("cm-" + i)),
                () -> api.get(CONFIGMAPS + "/cm-" + i),
                () -> api.get(CONFIGMAPS + "?limit=20"),
                () -> api.post(WIDGETS, widget("w-" + i)),
                () -> api.get(WIDGETS + "/w-" + i),
                () -> api.get(WIDGETS)), PluginSwapUnderLoadIT::pathOf);
        swapThreeTimes(context, load, Bundles.kubelix(context, KubelixContainer.PLUGIN_RESOURCE_CORE),
                Bundles.kubelix(context, KubelixContainer.SAMPLE_RESOURCE));

        assertTrue("a swap with too little load to prove anything", load.created(CONFIGMAPS).size() > 50);
        assertWatchesGotEveryAddOnceInOrder(api, watched, load,
                Map.of(CONFIGMAPS, configMap("cm-end"), WIDGETS, widget("w-end")));
    }

    /**
     * Updating the storage plugin under load, as replacing its jar does (an update, then a refresh):
     * requests wait for the new version and none fails, every object created is still there, and the
     * watches go on with every event once and in order, the refresh coming before the watch cache
     * watched the updated version or after.
     */
    @Test
    public void storageBundleUpdatesUnderLoadFailNoRequestLoseNoObjectAndEndNoWatch() throws Exception {
        Map<String, List<ApiClient.Watch>> watched = Map.of(CONFIGMAPS, openWatches(api, CONFIGMAPS, watches));
        Load load = new Load(i -> List.of(
                () -> api.post(CONFIGMAPS, configMap("st-" + i)),
                () -> api.get(CONFIGMAPS + "/st-" + i),
                () -> api.get(CONFIGMAPS + "?limit=20")), PluginSwapUnderLoadIT::pathOf);
        swapThreeTimes(context, load, Bundles.kubelix(context, KubelixContainer.PLUGIN_STORAGE_MEMORY));

        Set<String> created = load.created(CONFIGMAPS);
        assertTrue("a swap with too little load to prove anything", created.size() > 50);
        for (String name : created) {
            Response kept = api.get(CONFIGMAPS + "/" + name);
            assertEquals(kept.toString(), 200, kept.status());
        }
        assertWatchesGotEveryAddOnceInOrder(api, watched, load, Map.of(CONFIGMAPS, configMap("st-end")));
    }

    /** Updating the authenticator under load: a valid token always works, a wrong one never does. */
    @Test
    public void authenticatorUpdatesUnderLoadLetNoRequestThroughUnauthenticated() throws Exception {
        Load load = new Load(i -> List.of(
                () -> api.get(CONFIGMAPS + "?limit=1"),
                () -> expect401(api.getWithToken(CONFIGMAPS + "?limit=1", "not-a-valid-token-" + i)),
                () -> expect401(api.getWithoutCredentials(CONFIGMAPS + "?limit=1"))), PluginSwapUnderLoadIT::pathOf);
        swapThreeTimes(context, load, Bundles.kubelix(context, KubelixContainer.PLUGIN_AUTHN_TOKEN));
    }

    /**
     * Removing a resource bundle under load: its watches end and its resources are gone at once,
     * requests to the other groups go on without a failure, and its objects are back with it.
     */
    @Test
    public void removingAResourceBundleUnderLoadEndsItsWatchesAndLeavesOtherGroupsAlone() throws Exception {
        Response kept = api.post(WIDGETS, widget("kept"));
        assertEquals(kept.toString(), 201, kept.status());
        ApiClient.Watch widgetWatch = api.watch(WIDGETS + "?watch=1");
        watches.add(widgetWatch);
        assertEquals(200, widgetWatch.status(TIMEOUT));
        Load load = new Load(i -> List.of(
                () -> api.post(CONFIGMAPS, configMap("other-" + i)),
                () -> api.get(CONFIGMAPS + "/other-" + i),
                () -> api.get("/api/v1/namespaces/" + NAMESPACE)), PluginSwapUnderLoadIT::pathOf);
        load.start();
        try {
            load.awaitSucceeded(REQUESTS_BETWEEN_SWAPS);
            Bundles.kubelix(context, KubelixContainer.SAMPLE_RESOURCE).uninstall();
            Response gone = api.get(WIDGETS);
            assertEquals(gone.toString(), 404, gone.status());
            Poll.until(TIMEOUT, "the widget watch ended", widgetWatch::ended);
            load.awaitSucceeded(REQUESTS_BETWEEN_SWAPS);

            context.installBundle(KubelixContainer.reactorBundleLocation(KubelixContainer.SAMPLE_RESOURCE)).start();
            Response back = ApiClient.await(TIMEOUT, "widget served again", () -> api.get(WIDGETS + "/kept"),
                    r -> r.status() == 200);
            assertEquals(kept.json().path("metadata").path("uid"), back.json().path("metadata").path("uid"));
            assertEquals(kept.json().path("metadata").path("resourceVersion"),
                    back.json().path("metadata").path("resourceVersion"));
            load.awaitSucceeded(REQUESTS_BETWEEN_SWAPS);
        } finally {
            load.stop();
        }
        assertEquals("failed requests to other groups: " + load.firstFailures(), 0, load.failures.size());
    }

    /** A 401 counts as the expected answer (200 with "ok"); anything else is returned as it came. */
    private static Response expect401(Response r) {
        return r.status() == 401 && "Unauthorized".equals(r.statusReason()) ? new Response(200, "", "expected 401") : r;
    }

    /** Where the load's objects are: configmaps, or widgets. */
    private static String pathOf(JsonNode created) {
        return created.path("kind").asText().equals("ConfigMap") ? CONFIGMAPS : WIDGETS;
    }

    private static String configMap(String name) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name + "\"},\"data\":{\"k\":\"v\"}}";
    }

    private static String widget(String name) {
        return "{\"apiVersion\":\"sample.kubelix.io/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"" + name
                + "\"},\"spec\":{\"size\":1}}";
    }
}
