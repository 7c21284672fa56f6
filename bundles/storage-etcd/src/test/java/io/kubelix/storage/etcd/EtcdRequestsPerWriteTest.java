package io.kubelix.storage.etcd;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.storage.GetOptions;
import io.kubelix.api.storage.ListOptions;
import io.kubelix.api.storage.Preconditions;
import io.kubelix.api.storage.StorageConfig;
import io.kubelix.api.storage.StorageInterface;
import io.kubelix.api.storage.Watch;
import io.kubelix.api.storage.WatchEvent;
import io.kubelix.runtime.storage.cacher.Cacher;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.kubelix.storage.etcd.EtcdTestSupport.CONFIGMAPS;
import static io.kubelix.storage.etcd.EtcdTestSupport.configMap;
import static io.kubelix.storage.etcd.EtcdTestSupport.key;
import static io.kubelix.storage.etcd.EtcdTestSupport.rv;
import static io.kubelix.storage.etcd.EtcdTestSupport.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The etcd requests an API write costs, counted by etcd itself ({@code grpc_server_started_total}
 * on its {@code /metrics}), through the watch cache as a server runs it: a create is one
 * transaction, so is an update or a delete of a cached object (kube-apiserver's cost), and a
 * read at resourceVersion "0", such as NamespaceLifecycle's lookup of the namespace on every
 * write, asks etcd nothing. When the cached object is stale the update still loses nothing, and the delete
 * still checks the object it deletes.
 */
class EtcdRequestsPerWriteTest {
    private static final int WRITES = 20;
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final Pattern STARTED =
            Pattern.compile("^grpc_server_started_total\\{[^}]*grpc_method=\"(\\w+)\"[^}]*} (\\S+)$", Pattern.MULTILINE);
    private static final AtomicInteger PREFIXES = new AtomicInteger();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    @RegisterExtension
    static final EtcdPerClass ETCD = new EtcdPerClass();

    private final List<EtcdStorageBackend> backends = new ArrayList<>();
    private final List<Cacher> cachers = new ArrayList<>();

    @AfterEach
    void close() {
        cachers.forEach(Cacher::stop);
        backends.forEach(EtcdStorageBackend::deactivate);
    }

    /**
     * A backend on a key prefix of its own that never asks etcd for watch progress unprompted, so
     * that only the test's requests are counted.
     */
    private EtcdStorageBackend backend() {
        String prefix = "/writes-" + PREFIXES.incrementAndGet() + "/registry";
        EtcdStorageBackend b = new EtcdStorageBackend(EtcdSettings.read(Map.of("etcd-servers", ETCD.endpoint(),
                "etcd-prefix", prefix, "etcd-compaction-interval", "0"), name -> null), Duration.ofHours(1), null);
        backends.add(b);
        return b;
    }

    /** The resource's storage as a server holds it: the watch cache over etcd, once it has listed. */
    private Cacher cached(EtcdStorageBackend b, StorageConfig config) throws InterruptedException {
        Cacher c = new Cacher(b.forResource(config), config.groupResource(), config.resourcePrefix(),
                EtcdCacherConformanceTest.OPTIONS);
        cachers.add(c);
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!c.ready() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertTrue(c.ready(), "the watch cache listed");
        return c;
    }

    @Test
    void createIsOneTransaction() throws Exception {
        Cacher configmaps = cached(backend(), CONFIGMAPS);
        Map<String, Double> before = requests();
        for (int i = 0; i < WRITES; i++) {
            configmaps.create(key("c" + i), configMap("c" + i, "v"));
        }
        Map<String, Double> spent = since(before);
        assertEquals(Map.of("Txn", (double) WRITES), spent, "etcd requests for " + WRITES + " creates");
    }

    @Test
    void updateOfACachedObjectIsOneTransaction() throws Exception {
        Cacher configmaps = cached(backend(), CONFIGMAPS);
        List<ObjectNode> created = createdAndCached(configmaps, "u");
        Map<String, Double> before = requests();
        for (int i = 0; i < WRITES; i++) {
            String expected = Long.toString(rv(created.get(i)));
            ObjectNode updated = configmaps.guaranteedUpdate(key("u" + i), false, Preconditions.NONE, (cur, rev) -> {
                assertEquals(expected, cur.path("metadata").path("resourceVersion").asText(), "the cached object");
                cur.with("data").put("value", "1");
                return cur;
            });
            assertEquals("1", value(updated));
        }
        Map<String, Double> spent = since(before);
        assertEquals(Map.of("Txn", (double) WRITES), spent, "etcd requests for " + WRITES + " updates");
    }

    @Test
    void deleteOfACachedObjectIsOneTransaction() throws Exception {
        Cacher configmaps = cached(backend(), CONFIGMAPS);
        List<ObjectNode> created = createdAndCached(configmaps, "d");
        Map<String, Double> before = requests();
        for (int i = 0; i < WRITES; i++) {
            ObjectNode deleted = configmaps.delete(key("d" + i), Preconditions.NONE, null);
            assertTrue(rv(deleted) > rv(created.get(i)), "the object as deleted, at the deletion's revision");
        }
        assertEquals(Map.of("Txn", (double) WRITES), since(before), "etcd requests for " + WRITES + " deletes");
    }

    @Test
    void deleteFromAStaleCachedObjectChecksTheCurrentOne() throws Exception {
        StorageInterface storage = backend().forResource(CONFIGMAPS);
        ObjectNode stale = storage.create(key("g"), configMap("g", "1"));
        ObjectNode newer = setValue(storage, "g", "2");
        List<String> validated = new ArrayList<>();
        // A precondition on the version the client read last: the stale copy fails it, etcd's object passes.
        ObjectNode deleted = storage.delete(key("g"), new Preconditions(null, Long.toString(rv(newer))),
                obj -> validated.add(value(obj)), stale.deepCopy());
        assertEquals(List.of("2"), validated, "the deletion was validated on the object deleted");
        assertEquals("2", value(deleted));
        assertThrows(io.kubelix.api.storage.StorageException.class,
                () -> storage.delete(key("g"), Preconditions.NONE, null, stale.deepCopy()), "gone is gone");
        assertEquals(null, storage.get(key("g"), new GetOptions(true, "")));
    }

    @Test
    void readAtResourceVersionZeroAsksEtcdNothingWhileOtherResourcesAreWritten() throws Exception {
        EtcdStorageBackend b = backend();
        Cacher namespaces = cached(b, new StorageConfig(GroupResource.of("", "namespaces"), "/namespaces"));
        Cacher configmaps = cached(b, CONFIGMAPS);
        ObjectNode ns = namespaces.create("/namespaces/default", namespace("default"));
        // Writes of another resource move etcd's revision past what the namespaces' cache has seen.
        configmaps.create(key("other"), configMap("other", "v"));
        Map<String, Double> before = requests();
        for (int i = 0; i < WRITES; i++) {
            assertEquals(rv(ns), rv(namespaces.get("/namespaces/default", new GetOptions(false, "0"))));
        }
        assertEquals(Map.of(), since(before), "etcd requests for " + WRITES + " reads at \"0\"");
    }

    @Test
    void updateFromAStaleCachedObjectLosesNothing() throws Exception {
        EtcdStorageBackend b = backend();
        StorageInterface storage = b.forResource(CONFIGMAPS);
        ObjectNode stale = storage.create(key("s"), configMap("s", "1"));
        ObjectNode newer = setValue(storage, "s", "2");
        List<String> seen = new ArrayList<>();
        Map<String, Double> before = requests();
        ObjectNode updated = storage.guaranteedUpdate(key("s"), false, Preconditions.NONE, (cur, rev) -> {
            seen.add(value(cur) + "@" + rev);
            cur.with("data").put("value", Integer.toString(Integer.parseInt(value(cur)) * 10));
            return cur;
        }, stale.deepCopy());
        assertEquals(List.of("1@" + rv(stale), "2@" + rv(newer)), seen, "tried on the cached copy, then on etcd's");
        assertEquals("20", value(updated));
        assertEquals(Map.of("Txn", 2.0), since(before), "the failed transaction read the current object");
        assertEquals(updated, storage.get(key("s"), GetOptions.DEFAULT));
    }

    @Test
    void staleCachedObjectIsReadAgainBeforeItsRejectionCounts() throws Exception {
        StorageInterface storage = backend().forResource(CONFIGMAPS);
        ObjectNode stale = storage.create(key("r"), configMap("r", "1"));
        ObjectNode newer = setValue(storage, "r", "2");
        String newerRv = Long.toString(rv(newer));
        // A client that updates what it read last (the newer version): the stale copy would be a conflict.
        ObjectNode updated = storage.guaranteedUpdate(key("r"), false, new Preconditions(null, newerRv), (cur, rev) -> {
            if (rev != rv(newer)) {
                throw StatusException.conflict(CONFIGMAPS.groupResource(), "r", "the object has been modified");
            }
            cur.with("data").put("value", "3");
            return cur;
        }, stale.deepCopy());
        assertEquals("3", value(updated));
        // Nothing to write according to the stale copy, but etcd's object differs: it is written.
        ObjectNode reverted = storage.guaranteedUpdate(key("r"), false, Preconditions.NONE, (cur, rev) -> {
            cur.with("data").put("value", "1");
            return cur;
        }, stale.deepCopy());
        assertEquals("1", value(reverted));
        assertTrue(rv(reverted) > rv(updated), "written");
        // A cached object deleted meanwhile is not found, as without the copy.
        storage.delete(key("r"), Preconditions.NONE, null);
        assertThrows(io.kubelix.api.storage.StorageException.class, () -> storage.guaranteedUpdate(key("r"), false,
                Preconditions.NONE, (cur, rev) -> cur, stale.deepCopy()));
        assertEquals(0, storage.getList("/configmaps/default", ListOptions.recursiveAll()).items().size());
    }

    /** {@link #WRITES} configmaps named {@code prefix0...}, created through {@code c} and in its cache. */
    private static List<ObjectNode> createdAndCached(Cacher c, String prefix) throws InterruptedException {
        List<ObjectNode> created = new ArrayList<>();
        for (int i = 0; i < WRITES; i++) {
            created.add(c.create(key(prefix + i), configMap(prefix + i, "0")));
        }
        awaitCached(c, created.get(WRITES - 1));
        return created;
    }

    /** Updates configmap {@code name}'s value, reading it first: what makes a copy of it stale. */
    private static ObjectNode setValue(StorageInterface storage, String name, String value) {
        return storage.guaranteedUpdate(key(name), false, Preconditions.NONE, (cur, rev) -> {
            cur.with("data").put("value", value);
            return cur;
        });
    }

    @Test
    void consistentGetIsOneRead() throws Exception {
        EtcdStorageBackend b = backend();
        Cacher configmaps = cached(b, CONFIGMAPS);
        ObjectNode created = createdAndCached(configmaps, "k").get(0);
        // Another resource's write: the configmaps' cache is behind etcd's revision, as it mostly is.
        b.forResource(new StorageConfig(GroupResource.of("", "secrets"), "/secrets"))
                .create("/secrets/default/s", configMap("s", "v"));
        Map<String, Double> before = requests();
        assertEquals(rv(created), rv(configmaps.get(key("k0"), GetOptions.DEFAULT)));
        assertEquals(Map.of("Range", 1.0), since(before), "etcd requests for a GET at resourceVersion \"\"");
    }

    @Test
    void checkingAProgressNotificationIsOneRequest() throws Exception {
        EtcdStorageBackend b = backend();
        StorageInterface configmaps = b.forResource(CONFIGMAPS);
        StorageInterface secrets = b.forResource(new StorageConfig(GroupResource.of("", "secrets"), "/secrets"));
        long from = configmaps.currentResourceVersion();
        try (Watch w = configmaps.watch("/configmaps", ListOptions.recursiveAll().withResourceVersion(Long.toString(from)))) {
            ObjectNode seen = configmaps.create(key("p"), configMap("p", "v"));
            assertEquals(rv(seen), rv(EtcdTestSupport.next(w, WAIT).object()), "the watch's stream is up");
            // Another resource's write: etcd's revision moves past the watch's last event.
            long moved = rv(secrets.create("/secrets/default/s", configMap("s", "v")));
            Map<String, Double> before = requests();
            WatchEvent bookmark = null;
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (bookmark == null && System.nanoTime() < deadline) {
                w.requestProgress();
                bookmark = w.next(Duration.ofMillis(500));
            }
            assertNotNull(bookmark, "a BOOKMARK");
            assertEquals(WatchEvent.Type.BOOKMARK, bookmark.type());
            assertEquals(moved, rv(bookmark.object()));
            assertEquals(Map.of("Txn", 1.0), since(before), "etcd requests to check the notification");
        }
    }

    private static void awaitCached(Cacher c, ObjectNode last) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        String key = key(last.path("metadata").path("name").asText());
        while (System.nanoTime() < deadline) {
            ObjectNode o = c.get(key, new GetOptions(true, "0"));
            if (o != null && rv(o) == rv(last)) {
                return;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("the watch cache did not see " + key);
    }

    private static ObjectNode namespace(String name) {
        ObjectNode ns = configMap(name, "");
        ns.remove("data");
        ns.put("kind", "Namespace");
        ((ObjectNode) ns.path("metadata")).remove("namespace");
        return ns;
    }

    /** The requests etcd has started since {@code before}, by gRPC method; methods without any are left out. */
    private static Map<String, Double> since(Map<String, Double> before) throws IOException, InterruptedException {
        Map<String, Double> spent = new HashMap<>();
        requests().forEach((method, n) -> {
            double d = n - before.getOrDefault(method, 0.0);
            if (d != 0) {
                spent.put(method, d);
            }
        });
        return spent;
    }

    /** etcd's {@code grpc_server_started_total}, summed by method. */
    private static Map<String, Double> requests() throws IOException, InterruptedException {
        String text = HTTP.send(HttpRequest.newBuilder(URI.create(ETCD.endpoint() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        Map<String, Double> out = new HashMap<>();
        Matcher m = STARTED.matcher(text);
        while (m.find()) {
            out.merge(m.group(1), Double.parseDouble(m.group(2)), Double::sum);
        }
        assertTrue(out.containsKey("Range"), "etcd's /metrics counts its requests");
        return out;
    }
}
