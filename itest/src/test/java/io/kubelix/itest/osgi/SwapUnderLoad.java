package io.kubelix.itest.osgi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubelix.itest.osgi.ApiClient.Response;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleEvent;
import org.osgi.framework.SynchronousBundleListener;
import org.osgi.framework.wiring.FrameworkWiring;

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
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * What the tests of plugins swapped under load share: a steady load of requests, bundles updated
 * as FileInstall updates a changed jar, and watches that must get every event once and in order.
 */
final class SwapUnderLoad {
    static final Duration TIMEOUT = Duration.ofSeconds(60);
    static final int WATCHES_PER_RESOURCE = 50;
    /** Requests that must succeed between two swaps, so every swap happens under load. */
    static final int REQUESTS_BETWEEN_SWAPS = 40;
    private static final int LOAD_THREADS = 4;
    private static final ObjectMapper JSON = new ObjectMapper();

    private SwapUnderLoad() {
    }

    /**
     * Starts the load, then updates each bundle in turn, three rounds, with requests succeeding
     * between updates; asserts that no request failed and that no other bundle changed state.
     */
    static void swapThreeTimes(BundleContext context, Load load, Bundle... bundles) throws Exception {
        BundleEvents others = new BundleEvents(bundles);
        context.addBundleListener(others);
        try {
            load.start();
            load.awaitSucceeded(REQUESTS_BETWEEN_SWAPS);
            for (int round = 1; round <= 3; round++) {
                for (Bundle bundle : bundles) {
                    updateAsFileInstallDoes(context, bundle);
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

    /** What FileInstall does with a changed jar: update the bundle, then refresh just that bundle. */
    static void updateAsFileInstallDoes(BundleContext context, Bundle bundle) throws Exception {
        long before = bundle.getLastModified();
        bundle.update();
        CountDownLatch refreshed = new CountDownLatch(1);
        context.getBundle(0).adapt(FrameworkWiring.class).refreshBundles(List.of(bundle), e -> refreshed.countDown());
        assertTrue("refresh of " + bundle.getSymbolicName() + " finished", refreshed.await(TIMEOUT.toSeconds(), TimeUnit.SECONDS));
        assertTrue(bundle.getLastModified() > before);
        assertEquals(bundle.getSymbolicName() + " active again", Bundle.ACTIVE, bundle.getState());
    }

    /** Opens {@link #WATCHES_PER_RESOURCE} watches of {@code path} from one list's revision, adding them to {@code all}. */
    static List<ApiClient.Watch> openWatches(ApiClient api, String path, List<ApiClient.Watch> all) throws Exception {
        Response list = api.get(path);
        assertEquals(list.toString(), 200, list.status());
        String rv = list.json().path("metadata").path("resourceVersion").asText();
        List<ApiClient.Watch> opened = new ArrayList<>();
        for (int i = 0; i < WATCHES_PER_RESOURCE; i++) {
            ApiClient.Watch w = api.watch(path + "?watch=1&resourceVersion=" + rv);
            all.add(w);
            opened.add(w);
        }
        for (ApiClient.Watch w : opened) {
            assertEquals(200, w.status(TIMEOUT));
        }
        return opened;
    }

    /**
     * Once the load stopped, creates one last object per watched path ({@code last}, a body by
     * path), then reads each watch up to its ADDED: before it, each watch must have got the ADDED of
     * every object the load created there exactly once, in resourceVersion order, and nothing else,
     * and must still be open. A lost, doubled or extra event fails, wherever it came in the stream.
     */
    static void assertWatchesGotEveryAddOnceInOrder(ApiClient api, Map<String, List<ApiClient.Watch>> watched, Load load,
                                                    Map<String, String> last) throws Exception {
        for (Map.Entry<String, List<ApiClient.Watch>> e : watched.entrySet()) {
            Response end = api.post(e.getKey(), last.get(e.getKey()));
            assertEquals(end.toString(), 201, end.status());
            String endName = end.json().path("metadata").path("name").asText();
            for (ApiClient.Watch w : e.getValue()) {
                assertEveryAddOnceInOrder(w, load.created(e.getKey()), endName, e.getKey());
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
     * stopped; every answer outside 2xx is a failure. The names of created objects are kept by the
     * path {@code pathOf} gives for each.
     */
    static final class Load {
        private final IntFunction<List<Supplier<Response>>> steps;
        private final Function<JsonNode, String> pathOf;
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final AtomicInteger next = new AtomicInteger();
        private final AtomicInteger succeeded = new AtomicInteger();
        private final List<Thread> threads = new ArrayList<>();
        final Queue<String> failures = new ConcurrentLinkedQueue<>();
        private final Map<String, Set<String>> created = new ConcurrentHashMap<>();

        Load(IntFunction<List<Supplier<Response>>> steps, Function<JsonNode, String> pathOf) {
            this.steps = steps;
            this.pathOf = pathOf;
        }

        /** The names of the objects created under {@code path}. */
        Set<String> created(String path) {
            return created.getOrDefault(path, Set.of());
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
                for (Supplier<Response> step : steps.apply(i)) {
                    try {
                        Response r = step.get();
                        if (r.status() / 100 != 2) {
                            failures.add(r.toString());
                        } else {
                            succeeded.incrementAndGet();
                            if (r.status() == 201) {
                                JsonNode obj = r.json();
                                created.computeIfAbsent(pathOf.apply(obj), k -> ConcurrentHashMap.newKeySet())
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
