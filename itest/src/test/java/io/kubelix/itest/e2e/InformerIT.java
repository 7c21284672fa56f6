package io.kubelix.itest.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The watch cache seen by a real client-go-style informer: fabric8's {@code SharedIndexInformer}
 * (list, then watch from the list's resourceVersion, re-watch from the last seen version, relist
 * on 410) against a copy of the distribution started with {@code --default-watch-cache-size 50},
 * so the window every resumed watch must fall into is 50 configmap events wide.
 * <ol>
 *   <li>the informer ends with exactly the server's state after a few hundred creates, updates and
 *       deletes from three writers while it runs;</li>
 *   <li>a forced 410: the informer's connections are cut and refused (a {@link TcpProxy} between it
 *       and the server) while more than 50 changes happen, so the resourceVersion it re-watches from
 *       has left the window: a raw watch from that version gets the ERROR event with a 410 Expired
 *       Status, and the informer, which gets the same, relists and converges;</li>
 *   <li>WatchList over raw HTTP/2: the current objects as ADDED, the
 *       {@code k8s.io/initial-events-end} BOOKMARK, then live events;</li>
 *   <li>a watcher that never reads is terminated by the cache while a reading watcher of the same
 *       namespace gets every event, in order, with no gap.</li>
 * </ol>
 * Why a proxy for the 410: the server ends an informer's watch only at its timeoutSeconds (fabric8
 * asks for 10 minutes and closes it itself after 5 to 10, neither settable) or when the cache
 * relists (no hook for that), so the test plays the network instead. The informer watches one
 * namespace and the window is shared by all of them: changes in another namespace move the window
 * without reaching the informer, so its last resourceVersion falls out of it while it is cut off,
 * and the cache's bookmarks (once a minute) cannot save it. fabric8 re-watches a broken watch from
 * that version by itself, gets the 410 ERROR event, and relists; the relist shows in its handler
 * (deletions reported with deletedFinalStateUnknown) and in its resourceVersion.
 * <p>
 * What the slow-consumer part observes, beyond what it asserts: once the stalled connection's socket
 * buffers are full the server's write to it stays pending, so the terminated watch's stream ends
 * (after the events queued before the termination, a gap-free prefix) only when the client reads
 * again; until then TCP shows the connection ESTABLISHED (printed, not asserted), as a
 * kube-apiserver handler blocked in that write would keep it.
 * The methods run in order on one server. resourceVersions are compared as numbers: Kubelix's are
 * the storage revision, as kube-apiserver's are etcd's (clients must not rely on that; the test may).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class InformerIT {
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration CONVERGE_TIMEOUT = Duration.ofSeconds(30);
    private static final int WINDOW = 50;
    private static final String NS = "informer";
    private static final String NOISE = "noise";
    private static final String SLOW = "slow";
    private static final String CMS = "/api/v1/namespaces/" + NS + "/configmaps";

    private KubelixServer server;
    private KubeApi api;
    private TcpProxy proxy;
    private KubernetesClient client;
    private SharedIndexInformer<ConfigMap> informer;
    /** A second informer, of the objects labelled team=a: objects enter and leave its selection. */
    private SharedIndexInformer<ConfigMap> teamA;
    /** What the informer's handler was told: name to resourceVersion (adds and updates put, deletes remove). */
    private final Map<String, String> notified = new ConcurrentHashMap<>();
    /** Names the handler was told were deleted with deletedFinalStateUnknown: only a relist tells that. */
    private final Set<String> deletedFinalStateUnknown = ConcurrentHashMap.newKeySet();
    /** Handler calls that moved an object's resourceVersion backwards: must stay empty. */
    private final List<String> regressions = Collections.synchronizedList(new ArrayList<>());

    @BeforeAll
    void start() throws Exception {
        Path distribution = Path.of(System.getProperty("kubelix.itest.distribution"));
        Path work = Path.of(System.getProperty("kubelix.itest.work", "target/itest-work"), "e2e",
                "informer-" + System.currentTimeMillis()).toAbsolutePath();
        Files.createDirectories(work);
        server = KubelixServer.start(distribution, work, READY_TIMEOUT,
                "--default-watch-cache-size", Integer.toString(WINDOW));
        api = new KubeApi(server.kubeconfig());
        for (String ns : List.of(NS, NOISE, SLOW)) {
            ObjectNode namespace = KubeApi.JSON.createObjectNode().put("apiVersion", "v1").put("kind", "Namespace");
            namespace.putObject("metadata").put("name", ns);
            api.post("/api/v1/namespaces", namespace);
        }
        proxy = new TcpProxy(api.port());
        // The admin kubeconfig as written by the server (token, CA data), pointed at the proxy. HTTP watches
        // (no WebSocket attempt first) and a short re-watch backoff, so a cut connection is re-watched within ~3s.
        Config config = new ConfigBuilder(Config.fromKubeconfig(api.kubeconfigYaml))
                .withMasterUrl("https://127.0.0.1:" + proxy.port())
                .withOnlyHttpWatches(true)
                .withWatchReconnectInterval(100)
                .withRequestTimeout(10_000)
                .build();
        client = new KubernetesClientBuilder().withConfig(config).withHttpClientFactory(new JdkHttpClientFactory()).build();
    }

    @AfterAll
    void stop() throws Exception {
        if (informer != null) {
            informer.stop();
        }
        if (teamA != null) {
            teamA.stop();
        }
        if (client != null) {
            client.close();
        }
        if (proxy != null) {
            proxy.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    @Order(1)
    void informerEndsWithTheServersStateAfterHundredsOfChanges() throws Exception {
        for (int i = 0; i < 40; i++) {
            api.post(CMS, labelled(KubeApi.configMap("pre-" + i, "v", "0"), i % 2 == 0 ? "a" : "b"));
        }
        informer = client.configMaps().inNamespace(NS).runnableInformer(0);
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(ConfigMap cm) {
                notified.put(cm.getMetadata().getName(), cm.getMetadata().getResourceVersion());
            }

            @Override
            public void onUpdate(ConfigMap oldCm, ConfigMap newCm) {
                long before = Long.parseLong(oldCm.getMetadata().getResourceVersion());
                long after = Long.parseLong(newCm.getMetadata().getResourceVersion());
                if (after < before) {
                    regressions.add(newCm.getMetadata().getName() + ": " + before + " -> " + after);
                }
                notified.put(newCm.getMetadata().getName(), newCm.getMetadata().getResourceVersion());
            }

            @Override
            public void onDelete(ConfigMap cm, boolean deletedFinalStateUnknown) {
                notified.remove(cm.getMetadata().getName());
                if (deletedFinalStateUnknown) {
                    InformerIT.this.deletedFinalStateUnknown.add(cm.getMetadata().getName());
                }
            }
        });
        informer.start().toCompletableFuture().get(30, TimeUnit.SECONDS);
        // The namespace also holds kube-root-ca.crt, as every namespace does.
        assertEquals(40, informer.getStore().list().stream().filter(cm -> cm.getMetadata().getName().startsWith("pre-"))
                .count(), "the informer's first list");
        teamA = client.configMaps().inNamespace(NS).withLabel("team", "a").runnableInformer(0);
        teamA.start().toCompletableFuture().get(30, TimeUnit.SECONDS);
        assertEquals(20, teamA.getStore().list().size(), "the team=a informer's first list");

        // Three writers, each on its own names, 100 operations each while the informers run:
        // creates, merge-patch updates (a third of them moving the object to the other team), deletes:
        // more than 6 windows' worth of events.
        ExecutorService writers = Executors.newFixedThreadPool(3);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < 3; w++) {
                int writer = w;
                done.add(writers.submit(() -> {
                    randomChanges(new Random(42 + writer), "w" + writer + "-", 100, writer == 0 ? "pre-" : null);
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            writers.shutdownNow();
        }
        assertConverged("after 300 changes");
    }

    @Test
    @Order(2)
    void informerSurvivesAForced410ByRelisting() throws Exception {
        assertConverged("before the cut");
        // Take the network away from the informer: its watch breaks, and every reconnect is refused.
        // (Its watch manager re-watches by itself, so isWatching() stays true; all it had was processed above.)
        proxy.refuse(true);
        proxy.cutAll();
        Thread.sleep(200); // anything already read off the socket is processed
        long old = Long.parseLong(informer.lastSyncResourceVersion());

        // Changes it misses: in its namespace, then more than a window of them elsewhere, so that
        // nothing is left of the window after `old` and the newest revision is not one of its namespace.
        // Not kube-root-ca.crt: its publisher would create it again at once.
        List<String> names = new ArrayList<>(serverState().keySet().stream().filter(n -> !n.equals("kube-root-ca.crt"))
                .toList());
        Set<String> deletedMeanwhile = new java.util.TreeSet<>();
        for (int i = 0; i < 10; i++) {
            api.delete(CMS + "/" + names.get(i));
            deletedMeanwhile.add(names.get(i));
            api.mergePatch(CMS + "/" + names.get(names.size() - 1 - i), patch("v", "missed-" + i));
            api.post(CMS, KubeApi.configMap("missed-" + i, "v", "0"));
        }
        long newest = 0;
        for (int i = 0; i < WINDOW + 10; i++) {
            newest = KubeApi.rv(api.post("/api/v1/namespaces/" + NOISE + "/configmaps", KubeApi.configMap("noise-" + i)));
        }

        // What a watch from `old` gets now: the ERROR event carrying a 410 Expired Status, then the end.
        try (KubeApi.WatchStream w = api.watch(CMS + "?watch=true&resourceVersion=" + old)) {
            JsonNode e = w.expect(Duration.ofSeconds(10));
            assertEquals("ERROR", e.path("type").asText(), e::toString);
            assertEquals("Status", e.path("object").path("kind").asText(), e::toString);
            assertEquals(410, e.path("object").path("code").asInt(), e::toString);
            assertEquals("Expired", e.path("object").path("reason").asText(), e::toString);
            assertTrue(w.awaitEnd(Duration.ofSeconds(10)), "the server ends a watch after its 410 ERROR event");
        }
        assertEquals(String.valueOf(old), informer.lastSyncResourceVersion(), "the informer saw nothing meanwhile");

        // Give it the network back: it re-watches from `old`, is told 410, relists and watches again.
        proxy.refuse(false);
        assertConverged("after the forced 410");
        // Only a relist can have taken it to `newest` or later: a resumed watch of its namespace would end at
        // the last change there, which is older than the noise (and the cache's bookmarks come once a minute).
        long now = Long.parseLong(informer.lastSyncResourceVersion());
        assertTrue(now >= newest, "the informer relisted: its resourceVersion " + now + " >= " + newest);
        // And it watches again: a change made now reaches its handler. (fabric8 8's isWatching() does not
        // tell this after a relist, so the test asks what a user relies on.)
        api.post(CMS, KubeApi.configMap("after-410", "v", "1"));
        await("the informer sees a change made after its relist", () -> notified.containsKey("after-410"));
        // And the deletions it missed reached its handler as a relist reports them: final state unknown
        // (a resumed watch would have delivered DELETED events instead). In fabric8 only a 410 relists a
        // running informer: broken connections are re-watched by its watch manager, and any other watch
        // error stops the informer.
        assertEquals(deletedMeanwhile, new java.util.TreeSet<>(deletedFinalStateUnknown),
                "deletions learnt from the relist");
    }

    @Test
    @Order(3)
    void watchListSendsInitialStateThenTheInitialEventsEndBookmarkThenLiveEvents() throws Exception {
        JsonNode list = api.get(CMS);
        long listRv = Long.parseLong(list.path("metadata").path("resourceVersion").asText());
        Map<String, String> expected = new TreeMap<>();
        list.path("items").forEach(i -> expected.put(i.path("metadata").path("name").asText(),
                i.path("metadata").path("resourceVersion").asText()));
        assertTrue(expected.size() > 30, list::toString);

        try (KubeApi.WatchStream w = api.watch(CMS + "?watch=true&sendInitialEvents=true"
                + "&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true")) {
            Map<String, String> initial = new TreeMap<>();
            JsonNode e;
            while (!(e = w.expect(Duration.ofSeconds(10))).path("type").asText().equals("BOOKMARK")) {
                assertEquals("ADDED", e.path("type").asText(), e::toString);
                JsonNode meta = e.path("object").path("metadata");
                assertEquals("ConfigMap", e.path("object").path("kind").asText(), e::toString);
                initial.put(meta.path("name").asText(), meta.path("resourceVersion").asText());
            }
            assertEquals(expected, initial, "the initial events are the current objects");
            JsonNode bookmark = e.path("object");
            assertEquals("true", bookmark.path("metadata").path("annotations").path("k8s.io/initial-events-end").asText(),
                    bookmark::toString);
            assertTrue(Long.parseLong(bookmark.path("metadata").path("resourceVersion").asText()) >= listRv,
                    bookmark::toString);

            long created = KubeApi.rv(api.post(CMS, KubeApi.configMap("watchlist-live", "v", "1")));
            long patched = KubeApi.rv(api.mergePatch(CMS + "/watchlist-live", patch("v", "2")));
            api.delete(CMS + "/watchlist-live"); // answered with a Status, as kube-apiserver answers for configmaps
            assertEquals(created, assertLive(w, "ADDED"));
            assertEquals(patched, assertLive(w, "MODIFIED"));
            assertTrue(assertLive(w, "DELETED") > patched, "the deletion's resourceVersion is newer");
        }
        assertConverged("after the WatchList test's changes");
    }

    @Test
    @Order(4)
    void aWatcherThatNeverReadsIsTerminatedWhileAReadingOneGetsEveryEventInOrder() throws Exception {
        String cms = "/api/v1/namespaces/" + SLOW + "/configmaps";
        String pad = "x".repeat(10_000);
        long start = 0;
        for (String name : List.of("slow-a", "slow-b")) {
            start = Math.max(start, KubeApi.rv(api.post(cms, KubeApi.configMap(name, "v", "0", "pad", pad))));
        }
        String watchPath = cms + "?watch=true&resourceVersion=" + start + "&timeoutSeconds=600";
        NavigableSet<Long> written = new ConcurrentSkipListSet<>();
        List<Long> received = Collections.synchronizedList(new ArrayList<>());
        try (KubeApi.WatchStream reading = api.watch(watchPath);
             SSLSocket stalled = openStalledWatch(watchPath)) {
            // The reading watch is drained as it goes; the stalled one is never read until the end. Events are
            // ~10 KiB: the stalled connection's socket buffers fill first, then its watcher's buffer (1000 events),
            // and then the cache must terminate it rather than wait on it.
            Thread reader = new Thread(() -> {
                try {
                    while (true) {
                        JsonNode e = reading.next(Duration.ofSeconds(60));
                        if (e != null && e.path("type").asText().equals("MODIFIED")) {
                            received.add(KubeApi.rv(e.path("object")));
                        }
                    }
                } catch (AssertionError | InterruptedException ended) {
                    // the stream ended, or the test is over
                }
            }, "reading-watch");
            reader.setDaemon(true);
            reader.start();

            ExecutorService writers = Executors.newFixedThreadPool(2);
            int rounds = 0;
            boolean terminated = false;
            try {
                // Rounds of 100 updates from two writers until the server logs the termination (at most 60 rounds).
                while (rounds < 60) {
                    rounds++;
                    List<Future<?>> done = new ArrayList<>();
                    for (String name : List.of("slow-a", "slow-b")) {
                        int round = rounds;
                        done.add(writers.submit(() -> {
                            for (int i = 0; i < 50; i++) {
                                written.add(KubeApi.rv(api.mergePatch(cms + "/" + name, patch("v", round + "-" + i))));
                            }
                            return null;
                        }));
                    }
                    for (Future<?> f : done) {
                        f.get(60, TimeUnit.SECONDS);
                    }
                    if (terminated) {
                        break; // one more round after the termination, which the reading watch must get too
                    }
                    terminated = server.log().contains("terminated a watcher of");
                }
            } finally {
                writers.shutdownNow();
            }
            System.out.println("InformerIT: " + written.size() + " updates of ~10 KiB in " + rounds
                    + " rounds; stalled watcher terminated: " + terminated);
            assertTrue(terminated, "the watch cache never terminated the watcher that does not read, after "
                    + written.size() + " events of ~10 KiB (its socket buffers absorbed them all?)\n" + server.log());

            await("the reading watch gets all " + written.size() + " events", () -> received.size() >= written.size());
            List<Long> got;
            synchronized (received) {
                got = new ArrayList<>(received);
            }
            assertEquals(new ArrayList<>(written), got, "the reading watch: every event, in order, once");

            // Until the client reads, the server cannot end the stream: its last write is still pending in the
            // full socket buffers (as in kube-apiserver, whose handler blocks in that write). What TCP says now:
            System.out.println("InformerIT: before it is read, the stalled watch's connection is "
                    + tcpState(stalled.getLocalPort()));

            // Now read the stalled watch: what it was sent before its termination, a gap-free prefix of the
            // events, then the end of the stream (the server's, long before its timeoutSeconds).
            Stalled s = drain(stalled);
            System.out.println("InformerIT: the stalled watch got " + s.rvs.size() + " events, then "
                    + (s.cleanEnd ? "the end of its chunked body" : s.eof ? "the connection closed" : "nothing"));
            assertTrue(s.cleanEnd || s.eof, "the server ended the stalled watch's stream");
            assertTrue(s.rvs.size() < written.size(), "the stalled watch missed the events after its termination");
            assertEquals(new ArrayList<>(written).subList(0, s.rvs.size()), s.rvs,
                    "the stalled watch got a gap-free prefix of the events");
        }
        // The informer of the other namespace was not disturbed by any of it.
        assertConverged("at the end");
    }

    // ---- helpers ----

    /** {@code count} random creates, updates and deletes on names starting with {@code prefix} (and {@code alsoOwned}'s). */
    private void randomChanges(Random random, String prefix, int count, String alsoOwned) throws Exception {
        List<String> mine = new ArrayList<>();
        if (alsoOwned != null) {
            serverState().keySet().stream().filter(n -> n.startsWith(alsoOwned)).forEach(mine::add);
        }
        int next = 0;
        for (int i = 0; i < count; i++) {
            int op = random.nextInt(10);
            if (mine.isEmpty() || op < 4) {
                String name = prefix + next++;
                api.post(CMS, labelled(KubeApi.configMap(name, "v", "0", "writer", prefix), random.nextBoolean() ? "a" : "b"));
                mine.add(name);
            } else if (op < 8) {
                ObjectNode p = patch("v", Integer.toString(i));
                if (random.nextInt(3) == 0) {
                    p.putObject("metadata").putObject("labels").put("team", random.nextBoolean() ? "a" : "b");
                }
                api.mergePatch(CMS + "/" + mine.get(random.nextInt(mine.size())), p);
            } else {
                api.delete(CMS + "/" + mine.remove(random.nextInt(mine.size())));
            }
        }
    }

    private static ObjectNode labelled(ObjectNode cm, String team) {
        ((ObjectNode) cm.path("metadata")).putObject("labels").put("team", team);
        return cm;
    }

    private static ObjectNode patch(String key, String value) {
        ObjectNode p = KubeApi.JSON.createObjectNode();
        p.putObject("data").put(key, value);
        return p;
    }

    /** The server's configmaps of {@link #NS} (a consistent list): name to "resourceVersion data". */
    private Map<String, String> serverState() throws Exception {
        return serverState("");
    }

    private Map<String, String> serverState(String query) throws Exception {
        Map<String, String> out = new TreeMap<>();
        for (JsonNode i : api.get(CMS + query).path("items")) {
            out.put(i.path("metadata").path("name").asText(),
                    i.path("metadata").path("resourceVersion").asText() + " " + KubeApi.JSON.writeValueAsString(i.path("data")));
        }
        return out;
    }

    private static Map<String, String> informerState(SharedIndexInformer<ConfigMap> informer) {
        Map<String, String> out = new TreeMap<>();
        for (ConfigMap cm : informer.getStore().list()) {
            out.put(cm.getMetadata().getName(), cm.getMetadata().getResourceVersion() + " "
                    + KubeApi.JSON.valueToTree(cm.getData() == null ? Map.of() : cm.getData()));
        }
        return out;
    }

    private Map<String, String> notifiedState() {
        return new TreeMap<>(notified);
    }

    /**
     * Waits until the informer's store equals the server's state (names, resourceVersions, data), and
     * what its handler was told matches the store; and the team=a informer's store the server's team=a objects.
     */
    private void assertConverged(String when) throws Exception {
        assertConverged(teamA, "?labelSelector=team%3Da", "the team=a informer's store " + when);
        Map<String, String> actual = assertConverged(informer, "", "the informer's store " + when);
        Map<String, String> versions = new TreeMap<>();
        actual.forEach((k, v) -> versions.put(k, v.substring(0, v.indexOf(' '))));
        Map<String, String> told = notifiedState();
        for (int i = 0; i < 50 && !versions.equals(told); i++) {
            Thread.sleep(100); // handlers run on their own thread, after the store
            told = notifiedState();
        }
        assertEquals(versions, told, "what the informer's handler was told " + when);
        assertEquals(List.of(), regressions, "resourceVersions never go backwards in onUpdate");
    }

    private Map<String, String> assertConverged(SharedIndexInformer<ConfigMap> informer, String query, String what)
            throws Exception {
        long deadline = System.nanoTime() + CONVERGE_TIMEOUT.toNanos();
        Map<String, String> expected;
        Map<String, String> actual;
        do {
            expected = serverState(query);
            actual = informerState(informer);
            if (expected.equals(actual)) {
                break;
            }
            Thread.sleep(100);
        } while (System.nanoTime() < deadline);
        assertEquals(expected, actual, what);
        return actual;
    }

    /** The next event but bookmarks: of {@code type}, on watchlist-live; returns its resourceVersion. */
    private static long assertLive(KubeApi.WatchStream w, String type) throws InterruptedException {
        JsonNode e;
        do {
            e = w.expect(Duration.ofSeconds(10));
        } while (e.path("type").asText().equals("BOOKMARK"));
        assertEquals(type, e.path("type").asText(), e::toString);
        assertEquals("watchlist-live", e.path("object").path("metadata").path("name").asText(), e::toString);
        return KubeApi.rv(e.path("object"));
    }

    private static void await(String what, Supplier<Boolean> condition) throws InterruptedException {
        long deadline = System.nanoTime() + CONVERGE_TIMEOUT.toNanos();
        while (!condition.get()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out: " + what);
            }
            Thread.sleep(50);
        }
    }

    // ---- a watch over HTTP/1.1 that is not read ----

    /** Sends the watch request over a TLS socket with a small receive buffer; nothing is read from it. */
    private SSLSocket openStalledWatch(String path) throws IOException {
        SSLSocket s = (SSLSocket) api.ssl.getSocketFactory().createSocket();
        s.setReceiveBufferSize(4096);
        s.connect(new InetSocketAddress("127.0.0.1", api.port()), 5000);
        SSLParameters p = s.getSSLParameters();
        p.setApplicationProtocols(new String[] {"http/1.1"});
        s.setSSLParameters(p);
        s.startHandshake();
        OutputStream out = s.getOutputStream();
        out.write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + api.port() + "\r\nAuthorization: Bearer "
                + api.token + "\r\nAccept: application/json\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return s;
    }

    /** The state of the loopback TCP connection from {@code localPort}, from /proc/net/tcp (Linux), for the report. */
    private static String tcpState(int localPort) {
        String local = String.format(":%04X ", localPort);
        try {
            List<String> lines = new ArrayList<>(Files.readAllLines(Path.of("/proc/net/tcp")));
            lines.addAll(Files.readAllLines(Path.of("/proc/net/tcp6"))); // Java's sockets are often IPv6 ones
            for (String l : lines) {
                String[] f = l.trim().split("\\s+");
                if (f.length > 4 && (f[1] + " ").endsWith(local)) {
                    String state = switch (f[3]) {
                        case "01" -> "ESTABLISHED (the server has not closed it)";
                        case "08" -> "CLOSE_WAIT (the server closed it)";
                        default -> "in TCP state " + f[3];
                    };
                    return state + ", " + Long.parseLong(f[4].split(":")[1], 16) + " bytes unread in its receive queue";
                }
            }
            return "not found in /proc/net/tcp";
        } catch (IOException | RuntimeException e) {
            return "unknown (" + e + ")";
        }
    }

    private record Stalled(List<Long> rvs, boolean cleanEnd, boolean eof) {
    }

    /** Reads the stalled watch's response: status, headers, then the chunked body, until its end, EOF or 15s of silence. */
    private static Stalled drain(SSLSocket s) throws IOException {
        s.setSoTimeout(15_000);
        InputStream in = s.getInputStream();
        String status = line(in);
        assertTrue(status != null && status.startsWith("HTTP/1.1 200"), "stalled watch status: " + status);
        boolean chunked = false;
        for (String h = line(in); h != null && !h.isEmpty(); h = line(in)) {
            chunked |= h.toLowerCase().startsWith("transfer-encoding:") && h.toLowerCase().contains("chunked");
        }
        assertTrue(chunked, "the watch body is chunked");
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        boolean cleanEnd = false;
        boolean eof = false;
        try {
            while (true) {
                String size = line(in);
                if (size == null) {
                    eof = true;
                    break;
                }
                if (size.isEmpty()) {
                    continue;
                }
                int n = Integer.parseInt(size.split(";")[0].trim(), 16);
                if (n == 0) {
                    cleanEnd = true;
                    break;
                }
                byte[] chunk = in.readNBytes(n);
                body.write(chunk);
                if (chunk.length < n) {
                    eof = true;
                    break;
                }
            }
        } catch (SocketTimeoutException silent) {
            // neither end nor EOF: reported as such
        } catch (IOException reset) {
            eof = true;
        }
        List<Long> rvs = new ArrayList<>();
        String[] lines = body.toString(StandardCharsets.UTF_8).split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String l = lines[i];
            if (l.isBlank()) {
                continue;
            }
            if (i == lines.length - 1 && eof && !cleanEnd) {
                // The server aborted the stream (a terminated watcher whose write was stuck): the last
                // line may be cut short, and what it holds never counted as delivered.
                break;
            }
            JsonNode e = KubeApi.JSON.readTree(l);
            if (e.path("type").asText().equals("MODIFIED")) {
                rvs.add(KubeApi.rv(e.path("object")));
            }
        }
        return new Stalled(rvs, cleanEnd, eof);
    }

    /** One CRLF-terminated line, or null at EOF. */
    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) >= 0) {
            if (c == '\n') {
                String s = b.toString(StandardCharsets.US_ASCII);
                return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
            }
            b.write(c);
        }
        return b.size() == 0 ? null : b.toString(StandardCharsets.US_ASCII);
    }
}
