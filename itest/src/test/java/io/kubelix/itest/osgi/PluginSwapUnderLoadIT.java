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
import org.osgi.framework.BundleEvent;
import org.osgi.framework.SynchronousBundleListener;
import org.osgi.framework.wiring.FrameworkWiring;

import javax.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
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
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String NAMESPACE = "swap-load";
    private static final String CONFIGMAPS = "/api/v1/namespaces/" + NAMESPACE + "/configmaps";
    private static final String WIDGETS = "/apis/sample.kubelix.io/v1/namespaces/" + NAMESPACE + "/widgets";
    private static final int WATCHES_PER_RESOURCE = 50;
    private static final int LOAD_THREADS = 4;
    /** Requests that must succeed between two swaps, so every swap happens under load. */
    private static final int REQUESTS_BETWEEN_SWAPS = 40;

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
                CONFIGMAPS, openWatches(CONFIGMAPS),
                WIDGETS, openWatches(WIDGETS));
        Load load = new Load(i -> List.of(
                () -> api.post(CONFIGMAPS, configMap("cm-" + i)),
                () -> api.get(CONFIGMAPS + "/cm-" + i),
                () -> api.get(CONFIGMAPS + "?limit=20"),
                () -> api.post(WIDGETS, widget("w-" + i)),
                () -> api.get(WIDGETS + "/w-" + i),
                () -> api.get(WIDGETS)));
        swapThreeTimesUnderLoad(load, Bundles.kubelix(context, KubelixContainer.PLUGIN_RESOURCE_CORE),
                Bundles.kubelix(context, KubelixContainer.SAMPLE_RESOURCE));

        assertTrue("a swap with too little load to prove anything", load.created.get(CONFIGMAPS).size() > 50);
        assertWatchesGotEveryAddOnceInOrder(watched, load,
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
        Map<String, List<ApiClient.Watch>> watched = Map.of(CONFIGMAPS, openWatches(CONFIGMAPS));
        Load load = new Load(i -> List.of(
                () -> api.post(CONFIGMAPS, configMap("st-" + i)),
                () -> api.get(CONFIGMAPS + "/st-" + i),
                () -> api.get(CONFIGMAPS + "?limit=20")));
        swapThreeTimesUnderLoad(load, Bundles.kubelix(context, KubelixContainer.PLUGIN_STORAGE_MEMORY));

        Set<String> created = load.created.get(CONFIGMAPS);
        assertTrue("a swap with too little load to prove anything", created.size() > 50);
        for (String name : created) {
            Response kept = api.get(CONFIGMAPS + "/" + name);
            assertEquals(kept.toString(), 200, kept.status());
        }
        assertWatchesGotEveryAddOnceInOrder(watched, load, Map.of(CONFIGMAPS, configMap("st-end")));
    }

    /** Updating the authenticator under load: a valid token always works, a wrong one never does. */
    @Test
    public void authenticatorUpdatesUnderLoadLetNoRequestThroughUnauthenticated() throws Exception {
        Load load = new Load(i -> List.of(
                () -> api.get(CONFIGMAPS + "?limit=1"),
                () -> expect401(api.getWithToken(CONFIGMAPS + "?limit=1", "not-a-valid-token-" + i)),
                () -> expect401(api.getWithoutCredentials(CONFIGMAPS + "?limit=1"))));
        swapThreeTimesUnderLoad(load, Bundles.kubelix(context, KubelixContainer.PLUGIN_AUTHN_TOKEN));
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
                () -> api.get("/api/v1/namespaces/" + NAMESPACE)));
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

    /**
     * Starts the load, then updates each bundle in turn, three rounds, with requests succeeding
     * between updates; asserts that no request failed and that no other bundle changed state.
     */
    private void swapThreeTimesUnderLoad(Load load, Bundle... bundles) throws Exception {
        BundleEvents others = new BundleEvents(bundles);
        context.addBundleListener(others);
        try {
            load.start();
            load.awaitSucceeded(REQUESTS_BETWEEN_SWAPS);
            for (int round = 1; round <= 3; round++) {
                for (Bundle bundle : bundles) {
                    updateAsFileInstallDoes(bundle);
                    load.awaitSucceeded(REQUESTS_BETWEEN_SWAPS);
                }
            }
        } finally {
            load.stop();
            context.removeBundleListener(others);
        }
        assertEquals("failed requests during the swaps: " + load.firstFailures(), 0, load.failures.size());
        assertEquals("events of bundles that were not updated: " + others.events, List.of(), List.copyOf(others.events));
    }

    /** A 401 counts as the expected answer (200 with "ok"); anything else is returned as it came. */
    private static Response expect401(Response r) {
        return r.status() == 401 && "Unauthorized".equals(r.statusReason()) ? new Response(200, "", "expected 401") : r;
    }

    private List<ApiClient.Watch> openWatches(String path) throws Exception {
        Response list = api.get(path);
        assertEquals(list.toString(), 200, list.status());
        String rv = list.json().path("metadata").path("resourceVersion").asText();
        List<ApiClient.Watch> opened = new ArrayList<>();
        for (int i = 0; i < WATCHES_PER_RESOURCE; i++) {
            ApiClient.Watch w = api.watch(path + "?watch=1&resourceVersion=" + rv);
            watches.add(w);
            opened.add(w);
        }
        for (ApiClient.Watch w : opened) {
            assertEquals(200, w.status(TIMEOUT));
        }
        return opened;
    }

    /** What FileInstall does with a changed jar: update the bundle, then refresh just that bundle. */
    private void updateAsFileInstallDoes(Bundle bundle) throws Exception {
        long before = bundle.getLastModified();
        bundle.update();
        CountDownLatch refreshed = new CountDownLatch(1);
        context.getBundle(0).adapt(FrameworkWiring.class).refreshBundles(List.of(bundle), e -> refreshed.countDown());
        assertTrue("refresh of " + bundle.getSymbolicName() + " finished", refreshed.await(TIMEOUT.toSeconds(), TimeUnit.SECONDS));
        assertTrue(bundle.getLastModified() > before);
        assertEquals(bundle.getSymbolicName() + " active again", Bundle.ACTIVE, bundle.getState());
    }

    /**
     * Once the load stopped, creates one last object per watched path ({@code last}, a body by
     * path), then reads each watch up to its ADDED: before it, each watch must have got the ADDED of
     * every object the load created there exactly once, in resourceVersion order, and nothing else,
     * and must still be open. A lost, doubled or extra event fails, wherever it came in the stream.
     */
    private void assertWatchesGotEveryAddOnceInOrder(Map<String, List<ApiClient.Watch>> watched, Load load,
                                                     Map<String, String> last) throws Exception {
        for (Map.Entry<String, List<ApiClient.Watch>> e : watched.entrySet()) {
            Response end = api.post(e.getKey(), last.get(e.getKey()));
            assertEquals(end.toString(), 201, end.status());
            String endName = end.json().path("metadata").path("name").asText();
            for (ApiClient.Watch w : e.getValue()) {
                assertEveryAddOnceInOrder(w, load.created.get(e.getKey()), endName, e.getKey());
            }
        }
    }

    private static void assertEveryAddOnceInOrder(ApiClient.Watch w, Set<String> expected, String last, String path)
            throws Exception {
        List<String> seen = new ArrayList<>();
        long lastRv = 0;
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!seen.contains(last)) {
            assertTrue("no ADDED of " + last + " on " + path + " within " + TIMEOUT + " (" + seen.size()
                    + " events before)", System.nanoTime() < deadline);
            String line = w.lines().poll(100, TimeUnit.MILLISECONDS);
            if (line == null || line.isBlank()) {
                assertFalse("the watch on " + path + " ended after " + seen.size() + " events",
                        w.ended() && w.lines().isEmpty());
                continue;
            }
            JsonNode event = JSON.readTree(line);
            assertEquals(line, "ADDED", event.path("type").asText());
            JsonNode meta = event.path("object").path("metadata");
            long rv = Long.parseLong(meta.path("resourceVersion").asText());
            assertTrue("out of order on " + path + ": " + rv + " after " + lastRv, rv > lastRv);
            lastRv = rv;
            seen.add(meta.path("name").asText());
        }
        seen.remove(seen.size() - 1);
        Set<String> distinct = new HashSet<>();
        List<String> duplicates = seen.stream().filter(name -> !distinct.add(name)).toList();
        Set<String> missing = new HashSet<>(expected);
        missing.removeAll(distinct);
        Set<String> unexpected = new HashSet<>(distinct);
        unexpected.removeAll(expected);
        assertEquals("events missing on " + path, Set.of(), missing);
        assertEquals("duplicated events on " + path, List.of(), duplicates);
        assertEquals("events of objects nobody created on " + path, Set.of(), unexpected);
        assertFalse("the watch on " + path + " ended", w.ended());
    }

    private static String configMap(String name) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name + "\"},\"data\":{\"k\":\"v\"}}";
    }

    private static String widget(String name) {
        return "{\"apiVersion\":\"sample.kubelix.io/v1\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"" + name
                + "\"},\"spec\":{\"size\":1}}";
    }

    /** Bundle events of every bundle but the ones being updated. */
    private static final class BundleEvents implements SynchronousBundleListener {
        private final Set<Long> updated;
        final Queue<String> events = new ConcurrentLinkedQueue<>();

        BundleEvents(Bundle... updated) {
            this.updated = java.util.Arrays.stream(updated).map(Bundle::getBundleId).collect(Collectors.toSet());
        }

        @Override
        public void bundleChanged(BundleEvent event) {
            if (!updated.contains(event.getBundle().getBundleId())) {
                events.add(event.getBundle().getSymbolicName() + " " + event.getType());
            }
        }
    }

    /**
     * Client threads that each run the steps for their next number, one after another, until
     * stopped; every answer outside 2xx is a failure. Names of created objects are kept per path.
     */
    private static final class Load {
        private final IntFunction<List<java.util.function.Supplier<Response>>> steps;
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final AtomicInteger next = new AtomicInteger();
        private final AtomicInteger succeeded = new AtomicInteger();
        private final List<Thread> threads = new ArrayList<>();
        final Queue<String> failures = new ConcurrentLinkedQueue<>();
        final Map<String, Set<String>> created = new ConcurrentHashMap<>();

        Load(IntFunction<List<java.util.function.Supplier<Response>>> steps) {
            this.steps = steps;
        }

        void start() {
            for (int t = 0; t < LOAD_THREADS; t++) {
                Thread thread = new Thread(this::run, "swap-load-" + t);
                threads.add(thread);
                thread.start();
            }
        }

        private void run() {
            while (running.get()) {
                int i = next.incrementAndGet();
                for (java.util.function.Supplier<Response> step : steps.apply(i)) {
                    try {
                        Response r = step.get();
                        if (r.status() / 100 != 2) {
                            failures.add(r.toString());
                        } else {
                            succeeded.incrementAndGet();
                            if (r.status() == 201) {
                                JsonNode obj = r.json();
                                String path = obj.path("apiVersion").asText().equals("v1") ? CONFIGMAPS : WIDGETS;
                                created.computeIfAbsent(path, k -> ConcurrentHashMap.newKeySet())
                                        .add(obj.path("metadata").path("name").asText());
                            }
                        }
                    } catch (RuntimeException e) {
                        failures.add(e.toString());
                    }
                }
            }
        }

        /** The first ten failures, for a readable message. */
        String firstFailures() {
            return failures.stream().limit(10).collect(Collectors.joining("\n", "\n", "\n"));
        }

        /** Waits until {@code count} more requests have succeeded. */
        void awaitSucceeded(int count) {
            int target = succeeded.get() + count;
            Poll.until(TIMEOUT, count + " more successful requests (failures so far: " + firstFailures() + ")",
                    () -> succeeded.get() >= target);
        }

        void stop() throws InterruptedException {
            running.set(false);
            for (Thread t : threads) {
                t.join(TIMEOUT.toMillis());
            }
        }
    }
}
